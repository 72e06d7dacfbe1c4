/** Where the REST API lives (the operation registry's paths are relative to it). */
export const API_PREFIX = '/api/v1';
