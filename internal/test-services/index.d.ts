/** A `redis-server` started for a test. */
export interface RedisServerProcess {
  readonly port: number;
  /** `redis://127.0.0.1:PORT`. */
  readonly url: string;
  /** Kills the server at once (SIGKILL), as a crash would. */
  kill(): Promise<void>;
  /** Stops the server and removes its directory. */
  stop(): Promise<void>;
}
export declare function redisServerAvailable(): boolean;
export declare function skipRedisTests(): boolean;
export declare function freePort(): Promise<number>;
export declare function startRedisServer(): Promise<RedisServerProcess>;
