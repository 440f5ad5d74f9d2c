import type { GroupState } from './group-snapshot';

/** Groups whose state this process keeps, least recently used first out. */
export const CACHED_GROUPS = 10_000;

/**
 * The state of the groups this process wrote or read last, so a write to a group it knows needs
 * no read before its statement. Never trusted blindly: the statement's guard checks `last_seq`.
 */
export function createStateCache(capacity: number) {
  const states = new Map<string, GroupState>();
  return {
    get(groupId: string): GroupState | undefined {
      const state = states.get(groupId);
      if (state) {
        states.delete(groupId);
        states.set(groupId, state);
      }
      return state;
    },
    /** Keeps `state` unless the cache already holds a later one. */
    offer(state: GroupState): void {
      const held = states.get(state.group.id);
      if (held && Number(held.group.last_seq) > Number(state.group.last_seq)) return;
      states.delete(state.group.id);
      states.set(state.group.id, state);
      if (states.size > capacity) states.delete(states.keys().next().value as string);
    },
    forget(groupId: string): void {
      states.delete(groupId);
    },
  };
}
