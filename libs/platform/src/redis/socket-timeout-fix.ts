import Redis from 'ioredis';

/**
 * ioredis 5.9's `socketTimeout` outlives the socket it watches (decisions.md 2.8; ioredis issue
 * 2147, fixed in ioredis 6, which typeorm's peer range does not allow yet: design/TOOLCHAIN.md).
 *
 * The client arms a timer when it sends a command and disarms it on the socket's next data. When
 * the socket closes first (Redis restarted, the network dropped, `disconnect()` with a command
 * out), nothing disarms it: the timer fires later and destroys `this.stream`, which by then is the
 * *new* socket of the reconnected client. One outage thus costs a second reconnect about
 * `socketTimeout` after the first (the request path's rate limits fail open again for it), and the
 * timer keeps a closed client's process alive until it fires.
 *
 * The replacement binds the timer to the socket it was armed for: it destroys only that socket, and
 * the socket's close disarms it. Installed once per process, before the first client is made
 * (`redisOptions` installs it); `test/platform/redis-socket-timeout.e2e-spec.ts` reproduces the
 * fault against the real Redis and fails without it.
 */
interface SocketTimeoutInternals {
  stream: NodeJS.EventEmitter & { destroy(error?: Error): void };
  options: { socketTimeout?: number };
  commandQueue: { length: number };
  socketTimeoutTimer: NodeJS.Timeout | undefined;
  setSocketTimeout(): void;
}

let installed = false;

export function installSocketTimeoutFix(): void {
  if (installed) return;
  const prototype = Redis.prototype as unknown as SocketTimeoutInternals;
  // The method this replaces; should a later ioredis drop it, there is nothing to mend.
  if (typeof prototype.setSocketTimeout !== 'function') return;
  installed = true;
  prototype.setSocketTimeout = function setSocketTimeout(this: SocketTimeoutInternals): void {
    const stream = this.stream;
    const timeoutMs = this.options.socketTimeout;
    const disarm = () => {
      clearTimeout(timer);
      if (this.socketTimeoutTimer === timer) this.socketTimeoutTimer = undefined;
      stream.removeListener('close', disarm);
    };
    const timer = setTimeout(() => {
      disarm();
      stream.destroy(new Error(`Socket timeout. Expecting data, but didn't receive any in ${timeoutMs}ms.`));
    }, timeoutMs);
    this.socketTimeoutTimer = timer;
    stream.once('close', disarm);
    // As ioredis does: after its own data handler has taken the replies off the queue.
    stream.once('data', () => {
      disarm();
      if (this.commandQueue.length > 0 && this.stream === stream) this.setSocketTimeout();
    });
  };
}
