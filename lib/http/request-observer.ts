/**
 * Watching requests in flight without changing them: a person at a terminal is told when Nomad
 * has not answered for a while (a silent server otherwise gives minutes of nothing, then
 * `request aborted`), while the request itself keeps its own time limit and retries.
 */

/** Told of each attempt as it is sent and once it settles. */
export interface RequestObserver {
  /**
   * An attempt is sent. `request` is `METHOD url` (the URL holds no secret: the token travels in
   * a header); `holdMs` is how long the server may hold it by design (a blocking query), 0 for
   * any other. Returns what to call once the attempt settles: answered, failed or aborted.
   */
  sent(request: string, holdMs: number): () => void;
}

/** A request that has had no answer for longer than it should. */
export interface SlowRequest {
  /** `METHOD url`, as {@link RequestObserver.sent} was told. */
  readonly request: string;
  /** When it was sent (Unix ms). */
  readonly sentAt: number;
}

/** What {@link slowRequestObserver} reports to. */
export interface SlowRequestProps {
  /** How long past its hold a request may go unanswered before it is reported, in ms. */
  readonly afterMs: number;
  /** A request has gone `afterMs` past its hold without an answer. */
  readonly onSlow: (slow: SlowRequest) => void;
  /** A request reported slow has settled (answered, failed or aborted). */
  readonly onSettled: (slow: SlowRequest) => void;
  /** The clock (Unix ms). @default Date.now */
  readonly now?: () => number;
}

/** An observer that reports each attempt still unanswered `afterMs` after its hold, and its end. */
export function slowRequestObserver(props: SlowRequestProps): RequestObserver {
  const now = props.now ?? Date.now;
  return {
    sent: (request, holdMs) => {
      const slow: SlowRequest = { request, sentAt: now() };
      let reported = false;
      const timer = setTimeout(() => {
        reported = true;
        props.onSlow(slow);
      }, holdMs + props.afterMs);
      // Watching must never keep the process alive after its last request.
      timer.unref();
      let settled = false;
      return () => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (reported) props.onSettled(slow);
      };
    },
  };
}
