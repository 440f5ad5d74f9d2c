import type { StoredTokens, TokenStore } from './auth.js';
import type { CallOptions, HttpClient } from './http-client.js';
import type { ApiKey, CreateApiKeyRequest, CreatedApiKey } from './types.js';

/**
 * The caller's API keys (API.md §2.6): credentials for scripts, each limited to its scopes. Only a
 * client signed in with tokens may manage them (a client with `apiKey` gets `InsufficientScopeError`).
 */
export class ApiKeysApi {
  private readonly http: HttpClient;

  constructor(http: HttpClient) {
    this.http = http;
  }

  /**
   * `POST /v1/me/api-keys`: a new key; its `secret` is in this answer only (store it now). Never
   * retried after the request may have reached the server: a retry would make a second key.
   * `LimitExceededError` past 25 keys.
   */
  async create(request: CreateApiKeyRequest, options: CallOptions = {}): Promise<CreatedApiKey> {
    return (
      await this.http.request<CreatedApiKey>({
        ...options,
        method: 'POST',
        path: '/v1/me/api-keys',
        body: request,
        idempotencyKey: false,
      })
    ).data;
  }

  /** `GET /v1/me/api-keys`: every key, newest first, without secrets; `lastUsedAt` to the minute. */
  async list(options: CallOptions = {}): Promise<ApiKey[]> {
    return (
      await this.http.request<{ data: ApiKey[] }>({ ...options, method: 'GET', path: '/v1/me/api-keys' })
    ).data.data;
  }

  /** `DELETE /v1/me/api-keys/{keyId}`: the key stops working at once. `NotFoundError` for none of the caller's. */
  async revoke(keyId: string, options: CallOptions = {}): Promise<void> {
    await this.http.request<undefined>({
      ...options,
      method: 'DELETE',
      path: `/v1/me/api-keys/${encodeURIComponent(keyId)}`,
      idempotencyKey: false,
    });
  }
}

/**
 * The token store of a client constructed with `{ apiKey }`: every request carries the key as its
 * bearer. It never changes and never refreshes (a key is refused with 401 for good: revoked or
 * expired), and a session set on it is not kept: the key stays the credential.
 */
export class ApiKeyTokenStore implements TokenStore {
  private readonly tokens: StoredTokens;
  constructor(apiKey: string) {
    this.tokens = { accessToken: apiKey, refreshToken: '' };
  }
  get(): StoredTokens {
    return this.tokens;
  }
  set(): void {}
}
