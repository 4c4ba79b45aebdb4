// A fetch that resumes an AG-UI event stream when its connection breaks, the way the SSE
// standard's EventSource does: it remembers the last `id:` it passed on and asks again with
// `Last-Event-ID`, and the server answers with the events after that id, then the live tail.
//
// The response it returns is one uninterrupted stream, so the AG-UI client above it never sees
// the break. Only whole frames (up to a blank line) are passed on, so a frame cut in half by the
// break is dropped and arrives again, whole, after the reconnect.

const FRAME_END = [10, 10]; // "\n\n": the server ends every frame so

function concat(a, b) {
  if (a.length === 0) return b;
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

// The index just after the last "\n\n" in `bytes`, or 0.
function lastFrameEnd(bytes) {
  for (let i = bytes.length - 1; i > 0; i--) {
    if (bytes[i] === FRAME_END[1] && bytes[i - 1] === FRAME_END[0]) return i + 1;
  }
  return 0;
}

// The last `id:` field in whole frames, or null.
function lastId(bytes) {
  const text = new TextDecoder().decode(bytes);
  let id = null;
  for (const line of text.split('\n')) {
    if (line.startsWith('id:')) id = line.slice(line.startsWith('id: ') ? 4 : 3);
  }
  return id;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// Wraps `baseFetch` so that event-stream responses to `shouldResume(url, init)` requests resume.
// `onResume({ lastEventId, attempt, error })` is called before each reconnect; after `retries`
// failed reconnects in a row the stream fails with the last error.
export function resumableFetch(baseFetch, { shouldResume, onResume, retries = 5 } = {}) {
  return async (url, init = {}) => {
    const first = await baseFetch(url, init);
    const type = first.headers.get('content-type') ?? '';
    if (!(shouldResume?.(url, init) ?? true) || !first.ok || !first.body || !type.startsWith('text/event-stream')) {
      return first;
    }
    let reader = first.body.getReader();
    let pending = new Uint8Array(0);
    let seen = null;
    let failures = 0;
    const body = new ReadableStream({
      async pull(controller) {
        for (;;) {
          let chunk;
          try {
            chunk = await reader.read();
          } catch (error) {
            if (failures >= retries) {
              controller.error(error);
              return;
            }
            failures += 1;
            pending = new Uint8Array(0);
            onResume?.({ lastEventId: seen, attempt: failures, error });
            await sleep(Math.min(200 * 2 ** (failures - 1), 3000));
            const headers = new Headers(init.headers);
            if (seen !== null) headers.set('Last-Event-ID', seen);
            try {
              const again = await baseFetch(url, { ...init, headers });
              if (!again.ok || !again.body) {
                controller.error(new Error(`resuming the run failed: HTTP ${again.status} ${await again.text()}`));
                return;
              }
              reader = again.body.getReader();
            } catch (e) {
              reader = { read: () => Promise.reject(e), cancel: () => {} };
            }
            continue;
          }
          if (chunk.done) {
            controller.close();
            return;
          }
          pending = concat(pending, chunk.value);
          const end = lastFrameEnd(pending);
          if (end === 0) continue;
          const whole = pending.slice(0, end);
          pending = pending.slice(end);
          seen = lastId(whole) ?? seen;
          failures = 0;
          controller.enqueue(whole);
          return;
        }
      },
      cancel(reason) {
        return reader.cancel(reason);
      },
    });
    return new Response(body, { status: first.status, statusText: first.statusText, headers: first.headers });
  };
}
