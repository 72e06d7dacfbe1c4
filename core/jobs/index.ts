export { JOBS, type JobName } from './catalogue.ts';
export { defineJob, NO_PAYLOAD, parsePayload, PayloadError, type JobDefinition, type PayloadOf } from './define.ts';
export { enqueue, type EnqueueOptions } from './enqueue.ts';
