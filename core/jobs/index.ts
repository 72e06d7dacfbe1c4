export { JOBS, type JobName } from './catalogue.ts';
export { BACKGROUND, defineJob, NO_PAYLOAD, parsePayload, PayloadError, type JobDefinition, type PayloadOf } from './define.ts';
export { enqueue, type EnqueueOptions } from './enqueue.ts';
