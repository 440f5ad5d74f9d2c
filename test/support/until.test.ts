import { readFile } from 'node:fs/promises';
import { until } from './until';

describe('until', () => {
  afterEach(() => {
    jest.useRealTimers();
  });

  it('resolves once a condition holds', async () => {
    let calls = 0;
    await until(() => ++calls === 3);
    expect(calls).toBe(3);
  });

  it('resolves once an assertion stops throwing, sync or async', async () => {
    let calls = 0;
    await until(() => {
      expect(++calls).toBeGreaterThanOrEqual(2);
    });
    await until(async () => {
      expect(++calls).toBeGreaterThanOrEqual(4);
    });
    expect(calls).toBe(4);
  });

  it('names what it awaited and the last error when it gives up', async () => {
    await expect(
      until(
        () => {
          expect('red').toBe('green');
        },
        { what: 'the light', timeoutMs: 50 },
      ),
    ).rejects.toThrow(/^timed out after 50 ms waiting for the light; last: [\s\S]*green[\s\S]*red/);
  });

  it('names the check by its source when not told what it awaits', async () => {
    const ready = false;
    await expect(until(() => ready, { timeoutMs: 20 })).rejects.toThrow(
      /waiting for \(\)\s*=>\s*ready; last: the condition was still false$/,
    );
  });

  it('stops at once when abort gives a reason', async () => {
    let calls = 0;
    await expect(
      until(() => ++calls > 100, { what: 'the server', abort: () => (calls >= 2 ? 'it exited' : undefined) }),
    ).rejects.toThrow('stopped waiting for the server: it exited');
    expect(calls).toBe(2);
  });

  it('still waits in real time while the test fakes timers', async () => {
    jest.useFakeTimers();
    let done = false;
    void readFile(__filename).then(() => {
      done = true;
    });
    await until(() => done, 'a file read');
    expect(done).toBe(true);
  });
});
