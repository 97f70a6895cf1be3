import type { Client } from 'openapi-fetch';
import type { components, paths } from './schema';

/** The generated, typed client: `api.GET('/v1/snapshots/{id}', { params: { path: { id } } })`. */
export type RegScanApi = Client<paths>;
export type Schemas = components['schemas'];
