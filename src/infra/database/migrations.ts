import { InitialSchema1795357650037 } from '../../../migrations/1795357650037-InitialSchema';

/** Every migration, in order. `npm run migration:generate -- migrations/<Name>` writes new files; list them here. */
export const MIGRATIONS: Function[] = [InitialSchema1795357650037];
