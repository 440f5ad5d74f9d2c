/** A map from event names to listener signatures, e.g. `{ idle: () => void }`. */
type ListenerMap<L> = { [K in keyof L]: (...args: never[]) => void };

/**
 * The listeners of the outbox and of the realtime client. A listener that throws must not stop the
 * others or break the delivery that called it: its error goes to `onListenerError`, which the owner
 * turns into its own `error` event.
 */
export class Emitter<L extends ListenerMap<L>> {
  private readonly sets = new Map<keyof L, Set<L[keyof L]>>();

  private readonly onListenerError: (error: unknown, type: keyof L | undefined) => void;

  /** `type` is undefined for a callback run by {@link call}. */
  constructor(onListenerError: (error: unknown, type: keyof L | undefined) => void) {
    this.onListenerError = onListenerError;
  }

  /** Adds a listener; returns the function that removes it. */
  on<K extends keyof L>(type: K, listener: L[K]): () => void {
    let set = this.sets.get(type);
    if (!set) {
      set = new Set();
      this.sets.set(type, set);
    }
    set.add(listener);
    return () => set.delete(listener);
  }

  emit<K extends keyof L>(type: K, ...args: Parameters<L[K]>): void {
    for (const listener of this.sets.get(type) ?? []) {
      try {
        (listener as unknown as (...a: Parameters<L[K]>) => void)(...args);
      } catch (error) {
        this.onListenerError(error, type);
      }
    }
  }

  /** Runs another of the app's callbacks (a subscription's own handler) under the same rule. */
  call(callback: () => void): void {
    try {
      callback();
    } catch (error) {
      this.onListenerError(error, undefined);
    }
  }
}
