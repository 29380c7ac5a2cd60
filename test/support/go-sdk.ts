/**
 * The Go SDK (sdk/go) used as a developer uses it: a sample program copied into a new Go module in a
 * temporary directory outside the repository, requiring the SDK's module path with a `replace` to sdk/go
 * (what sdk/go/README.md documents for local use), checked by `go vet` and built. The module cache and
 * the build cache are Go's own (GOMODCACHE, GOCACHE: ~/go/pkg/mod and ~/.cache/go-build unless set), so a
 * second run compiles nothing it already compiled. Needs Go ≥ 1.24 on PATH and the Go module proxy on
 * the first run (the SDK's one dependency, github.com/oapi-codegen/runtime).
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '../../..');
/** The SDK's directory and module path (sdk/go/go.mod). */
export const GO_SDK_DIR = path.join(ROOT, 'sdk/go');
export const GO_SDK_MODULE = fs.readFileSync(path.join(GO_SDK_DIR, 'go.mod'), 'utf8').match(/^module (\S+)/m)![1];

/** A Go module made from one sample file: its directory and the result of `go vet`. */
export interface GoSample {
  dir: string;
  /** Runs the built sample with `args` and `env`; resolves to its stdout, rejects with its stderr. */
  run(args: string[], env: Record<string, string>): Promise<string>;
  remove(): void;
}

/** `go <args>` in `cwd`, niced (the machine is shared); rejects with the command's stderr. */
async function go(cwd: string, args: string[]): Promise<string> {
  const env = { ...process.env, GOFLAGS: '-mod=mod', GOTOOLCHAIN: process.env.GOTOOLCHAIN ?? 'auto' };
  try {
    const { stdout } = await run('nice', ['-n', '19', 'go', ...args], { cwd, env, maxBuffer: 16 << 20 });
    return stdout;
  } catch (e) {
    const err = e as Error & { stderr?: string };
    throw new Error(`go ${args.join(' ')} failed: ${err.stderr ?? err.message}`, { cause: e });
  }
}

/**
 * Copies `sampleFile` (a `package main` file) into a new module in a temporary directory with a
 * `replace` of the SDK to sdk/go and the SDK's go.sum; nothing is checked yet.
 */
export function newGoSample(sampleFile: string): GoSample {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-go-sample-'));
  fs.copyFileSync(sampleFile, path.join(dir, 'main.go'));
  fs.copyFileSync(path.join(GO_SDK_DIR, 'go.sum'), path.join(dir, 'go.sum'));
  fs.writeFileSync(
    path.join(dir, 'go.mod'),
    `module example.com/sample\n\ngo 1.24\n\nrequire ${GO_SDK_MODULE} v0.0.0\n\nreplace ${GO_SDK_MODULE} => ${GO_SDK_DIR}\n`,
  );
  const binary = path.join(dir, 'sample');
  return {
    dir,
    run: async (args, env) => {
      try {
        const { stdout } = await run(binary, args, { env: { ...process.env, ...env }, maxBuffer: 16 << 20 });
        return stdout;
      } catch (e) {
        const err = e as Error & { stderr?: string; stdout?: string };
        throw new Error(`sample ${args.join(' ')} failed: ${err.stderr ?? err.message}\n${err.stdout ?? ''}`, {
          cause: e,
        });
      }
    },
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

/** `go mod tidy`, `go vet ./...` and `go build -o sample .` in the sample's module. */
export async function vetAndBuild(sample: GoSample): Promise<void> {
  await go(sample.dir, ['mod', 'tidy']);
  await go(sample.dir, ['vet', './...']);
  await go(sample.dir, ['build', '-o', 'sample', '.']);
}

/** In sdk/go itself: `go build ./...`, `go vet ./...` and `go test ./...` (its httptest unit tests). */
export async function buildVetTestSdk(): Promise<string> {
  await go(GO_SDK_DIR, ['build', './...']);
  await go(GO_SDK_DIR, ['vet', './...']);
  return go(GO_SDK_DIR, ['test', '-count=1', './...']);
}

/** `go vet ./...` in the sample's module, expected to fail: resolves to its error output. */
export async function vetFailure(sample: GoSample): Promise<string> {
  await go(sample.dir, ['mod', 'tidy']);
  return go(sample.dir, ['vet', './...']).then(
    () => '',
    (e: Error) => e.message,
  );
}
