import type { CallOptions, HttpClient, WriteOptions } from './http-client.js';
import type {
  AcceptInviteRequest,
  ClaimableMember,
  CreatedInvite,
  CreateInviteRequest,
  Group,
  Invite,
  InvitePreview,
} from './types.js';

const groupPath = (groupId: string) => `/v1/groups/${encodeURIComponent(groupId)}`;
const invitePath = (code: string) => `/v1/invites/${encodeURIComponent(code)}`;

/**
 * Invite links and claims of pending members (API.md §3.1–§3.3). Pending members themselves are
 * added with `tally.groups.addMember(groupId, { name, email? })`.
 *
 * These writes carry an `Idempotency-Key` per call (reused by its retries), like the group writes,
 * but are not outbox operations: each needs the server's answer to be of any use (the invite's code,
 * the group joined), so an app makes them online.
 */
export class InvitesApi {
  private readonly http: HttpClient;

  constructor(http: HttpClient) {
    this.http = http;
  }

  /** `POST /v1/groups/{groupId}/invites`: the only answer that carries the invite's `code`. */
  async create(
    groupId: string,
    body: CreateInviteRequest = {},
    options: WriteOptions = {},
  ): Promise<CreatedInvite> {
    return (
      await this.http.request<CreatedInvite>({
        ...options,
        method: 'POST',
        path: `${groupPath(groupId)}/invites`,
        body,
      })
    ).data;
  }

  /** `GET /v1/groups/{groupId}/invites`: the live invites, without their codes. */
  async list(groupId: string, options: CallOptions = {}): Promise<Invite[]> {
    return (
      await this.http.request<{ data: Invite[] }>({
        ...options,
        method: 'GET',
        path: `${groupPath(groupId)}/invites`,
      })
    ).data.data;
  }

  /** `DELETE /v1/groups/{groupId}/invites/{inviteId}`: the code stops working (again: no change). */
  async revoke(groupId: string, inviteId: string, options: WriteOptions = {}): Promise<void> {
    await this.http.request<undefined>({
      ...options,
      method: 'DELETE',
      path: `${groupPath(groupId)}/invites/${encodeURIComponent(inviteId)}`,
    });
  }

  /** `GET /v1/invites/{code}`: the group and the pending members one may become. `NotFoundError` for a dead code. */
  async preview(code: string, options: CallOptions = {}): Promise<InvitePreview> {
    return (await this.http.request<InvitePreview>({ ...options, method: 'GET', path: invitePath(code) }))
      .data;
  }

  /**
   * `POST /v1/invites/{code}/accept`: joins the group (or, already a member, changes nothing) and
   * answers it. `asMember` takes over that pending member; `MemberClaimedError` if someone else did.
   */
  async accept(code: string, body: AcceptInviteRequest = {}, options: WriteOptions = {}): Promise<Group> {
    return (
      await this.http.request<Group>({ ...options, method: 'POST', path: `${invitePath(code)}/accept`, body })
    ).data;
  }

  /** `GET /v1/me/claimable-members`: pending members added with the caller's email, to `claim`. */
  async claimable(options: CallOptions = {}): Promise<ClaimableMember[]> {
    return (
      await this.http.request<{ data: ClaimableMember[] }>({
        ...options,
        method: 'GET',
        path: '/v1/me/claimable-members',
      })
    ).data.data;
  }

  /**
   * `POST /v1/groups/{groupId}/members/{memberId}/claim`: takes over a pending member added with the
   * caller's email, without an invite; answers the group.
   */
  async claim(groupId: string, memberId: string, options: WriteOptions = {}): Promise<Group> {
    return (
      await this.http.request<Group>({
        ...options,
        method: 'POST',
        path: `${groupPath(groupId)}/members/${encodeURIComponent(memberId)}/claim`,
      })
    ).data;
  }
}
