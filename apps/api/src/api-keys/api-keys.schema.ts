import Joi from 'joi';
import { nameText, realTimestamp } from '../schemas/fields';
import { KEY_SCOPES } from './scopes';

/** `POST /v1/me/api-keys` (API.md §2.6). */
export const createApiKeyBody = Joi.object({
  name: nameText(100).required().description('What the key is for, 1–100 characters: shown in the list'),
  scopes: Joi.array()
    .items(Joi.string().valid(...KEY_SCOPES))
    .min(1)
    .max(KEY_SCOPES.length)
    .unique()
    .required()
    .description('`read`: GET and HEAD; `write`: every other method. One or both, each once'),
  expiresAt: realTimestamp.description(
    'When the key stops working (RFC 3339 with an offset; in the future). Absent: it works until revoked',
  ),
}).label('CreateApiKeyRequest');
