import { type BusMessage, type EventBus, eventMessage, type GroupEvent } from '@tally/events';
import type { Publication, PublishedBy } from '@tally/idempotency';

/**
 * How every write's committed events reach the gateways: the one publish path, keyed or not. A keyed
 * write's events may already have gone out with its key's completion (one Redis round trip for
 * both); `announce` is told so, and only marks them.
 */
export type Announcer = {
  /** The events as a store publishes them alongside a completion (`completeAndPublish`). */
  publications(events: readonly GroupEvent[]): Publication[];
  /**
   * After the commit: publishes the events, unless their key's completion did (`completion`) or
   * may have (`unknown`: the relay republishes what stays unmarked). Never fails the write.
   */
  announce(events: readonly GroupEvent[], publishedBy?: PublishedBy): void;
};

export type AnnouncerDeps = {
  bus: EventBus;
  /** The channel and text a message is published as (the plain or the sharded bus's). */
  publicationOf: (message: BusMessage) => Publication;
  /** Marks an event published so the outbox relay leaves it alone (batched). */
  markPublished: (eventId: string) => void;
  /** A publish that failed: the relay republishes the event; logged once and counted. */
  onPublishFailed: (error: unknown, eventId: string) => void;
};

export function createAnnouncer(deps: AnnouncerDeps): Announcer {
  const { bus, markPublished } = deps;
  return {
    publications: (events) => events.map((event) => deps.publicationOf(eventMessage(event))),
    announce(events, publishedBy = 'nobody') {
      if (publishedBy === 'unknown') return;
      for (const event of events) {
        if (publishedBy === 'completion') {
          markPublished(event.id);
          continue;
        }
        bus.publish(eventMessage(event)).then(
          () => markPublished(event.id),
          (error: unknown) => deps.onPublishFailed(error, event.id),
        );
      }
    },
  };
}
