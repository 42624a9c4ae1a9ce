import { enforceOutgoingInput, HttpAgent, runHttpRequest, transformHttpEventStream } from "@ag-ui/client";
import { Observable } from "rxjs";

// ResumingHttpAgent is an HttpAgent whose runs survive a dropped connection,
// on a server with resumable runs: when a stream ends before its run did, it
// asks for the rest (GET with Last-Event-ID, the id of the last event
// received, or before any the run's start, which the response that started
// it named in AG-UI-Resume-ID) and the events go on in the same observable,
// nothing lost or twice. A run whose response was lost before its header
// is joined (GET ?threadId=…&runId=…): what it has done so far comes as a
// snapshot, then the rest. connectAgent({ runId }) joins a run of
// this.threadId in progress.
export class ResumingHttpAgent extends HttpAgent {
  // Reconnections in a row, with no event between them, before the run fails.
  maxReconnects = 8;

  // The pause before the n-th reconnection in a row: none, then 100 ms doubling to 2 s.
  reconnectDelay(n) {
    return n === 1 ? 0 : Math.min(100 * 2 ** (n - 2), 2000);
  }

  // Called before each reconnection, for a page to say so.
  onReconnect(n, error) {}

  run(input) {
    return this.resuming(() => this.fetch(this.url, this.requestInit(enforceOutgoingInput(input))), () => this.joining(input));
  }

  connect(input) {
    return this.resuming(() => this.joining(input), () => this.joining(input));
  }

  joining(input) {
    const query = new URLSearchParams({ threadId: input.threadId, runId: input.runId });
    return this.fetch(`${this.url}?${query}`, this.getInit());
  }

  getInit(lastEventId) {
    const headers = { ...this.headers, Accept: "text/event-stream" };
    if (lastEventId) headers["Last-Event-ID"] = lastEventId;
    return { method: "GET", headers, signal: this.abortController.signal };
  }

  // reading sends a request and returns its response, whose body tells onId
  // the id of each complete event as it is read: the parser gets those bytes
  // next and emits their events in the same call, so the last id told is
  // always that of the last event delivered. Cancelling the body never fails:
  // runHttpRequest rethrows that failure, unhandled, which would end a Node
  // process once a stream has dropped.
  async reading(send, onId, onStart) {
    const res = await send();
    if (!res.ok || !res.body) return res;
    // The id before the run's first event: a stream cut before it resumes
    // from there (a browser may drop the bytes it had not handed over yet).
    const start = res.headers.get("AG-UI-Resume-ID");
    if (start) onStart(start);
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    let partial = "";
    const read = async () => {
      const chunk = await reader.read();
      if (chunk.value) {
        const events = (partial + decoder.decode(chunk.value, { stream: true })).split("\n\n");
        partial = events.pop();
        for (const event of events) {
          const id = event.split("\n").find((line) => line.startsWith("id:"));
          if (id) onId(id.slice(3).trim());
        }
      }
      return chunk;
    };
    const cancel = (reason) => reader.cancel(reason).catch(() => {});
    return { ok: res.ok, status: res.status, headers: res.headers, body: { getReader: () => ({ read, cancel }) } };
  }

  // resuming streams the events of firstRequest's response, and of the
  // requests that resume it; rejoin asks for a run whose first response was
  // lost before it said anything.
  resuming(firstRequest, rejoin) {
    return new Observable((subscriber) => {
      let lastEventId = null;
      let received = false; // an event came
      let lost = null; // why the first response was lost, while joining
      let ended = false; // RUN_FINISHED or RUN_ERROR seen
      let failures = 0;
      let current;
      let timer;
      const stream = (send) => {
        const reading = () => this.reading(send, (id) => (lastEventId = id), (id) => (lastEventId ??= id)); // never back to the start
        current = transformHttpEventStream(runHttpRequest(reading), this.debugLogger).subscribe({
          next: (event) => {
            failures = 0;
            received = true;
            ended ||= event.type === "RUN_FINISHED" || event.type === "RUN_ERROR";
            subscriber.next(event);
          },
          error: (error) => resume(error),
          complete: () => resume(null),
        });
      };
      const resume = (error) => {
        const refused = error?.status !== undefined; // an HTTP error: asking again would not help
        // A request whose response was lost before its header leaves no id:
        // the run may have started all the same, and joining it (what it
        // has done so far, then the rest) finds out without starting it
        // twice. A browser may send the request again by itself, which the
        // server refuses: the run is in progress.
        const inProgress = error?.status === 409 && error.payload?.error?.path === "/runId";
        const join = lastEventId === null && !received && error && (!refused || inProgress) && rejoin;
        if (ended || (lastEventId === null && !join) || (refused && !join) || this.abortController.signal.aborted) {
          if (error && !ended) subscriber.error(refused && lost ? lost : error); // a run not found: the first failure says why
          else subscriber.complete();
          return;
        }
        failures++;
        if (failures > this.maxReconnects) {
          subscriber.error(new Error(`the stream dropped ${failures} times in a row: ${error?.message ?? "it ended before its run"}`));
          return;
        }
        this.onReconnect(failures, error);
        if (join) lost ??= error;
        const next = join ? rejoin : () => this.fetch(this.url, this.getInit(lastEventId));
        timer = setTimeout(() => stream(next), this.reconnectDelay(failures));
      };
      stream(firstRequest);
      return () => {
        clearTimeout(timer);
        current?.unsubscribe();
      };
    });
  }
}
