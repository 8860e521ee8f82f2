import { spawn } from "node:child_process";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

/** A server running in a child process of ours. */
export interface ChildServer {
  /** What it printed as `{"url": …}` once it listened. */
  readonly url: string;
  /** The child's process id. */
  readonly pid: number;
  /** Stops the child by its PID and waits for it to exit. */
  close(): Promise<void>;
}

/**
 * Runs `script` (a file of this folder) under tsx in a child process, tied to this one by an IPC channel, and resolves
 * once it prints `{"url": …}`; rejects (the child stopped) when it exits first or does not within `startTimeoutMs`.
 */
export function startChildServer(script: string, what: string, options: { cwd?: string; env?: NodeJS.ProcessEnv; startTimeoutMs?: number } = {}): Promise<ChildServer> {
  const { cwd = __dirname, env = {}, startTimeoutMs = 60_000 } = options;
  const tsx = pathToFileURL(require.resolve("tsx")).href;
  const child = spawn(process.execPath, ["--import", tsx, join(__dirname, script)], { cwd, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe", "ipc"] });
  const { stdout, stderr } = child;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const close = async () => {
    if (child.exitCode === null && child.signalCode === null) process.kill(child.pid as number, "SIGTERM");
    await exited;
  };
  if (!stdout || !stderr) return close().then(() => Promise.reject(new Error(`${what}'s output is not piped`)));
  let errors = "";
  stderr.setEncoding("utf8").on("data", (text: string) => (errors = (errors + text).slice(-2_000)));
  return new Promise((resolve, reject) => {
    const fail = (why: string) => {
      clearTimeout(timer);
      void close().then(() => reject(new Error(`${what} did not start: ${why}${errors ? `\n${errors}` : ""}`)));
    };
    const timer = setTimeout(() => fail(`not listening after ${startTimeoutMs / 1000} s`), startTimeoutMs);
    const early = (code: number | null) => fail(`it exited with ${code}`);
    child.once("exit", early);
    let output = "";
    stdout.setEncoding("utf8").on("data", (text: string) => {
      output += text;
      const ready = /^\{"url":.*\}$/m.exec(output);
      if (!ready) return;
      clearTimeout(timer);
      child.off("exit", early);
      stdout.removeAllListeners("data").resume();
      resolve({ url: (JSON.parse(ready[0]) as { url: string }).url, pid: child.pid as number, close });
    });
  });
}
