import type { Click } from '../../../src/core/clicks/click.ts';
import type { ClickQuota, ClickSink, RotationCursor } from '../../../src/core/clicks/ports.ts';
import type { VisitPorts } from '../../../src/core/redirect/visit.ts';

/** A click cap counted in memory; `later` answers through promises, as a shared store does. */
export class FakeQuota implements ClickQuota {
  readonly used = new Map<number, number>();
  claims = 0;
  constructor(private readonly later = false) {}
  claim(linkId: number, cap: number, known: number): boolean | Promise<boolean> {
    this.claims++;
    const used = Math.max(this.used.get(linkId) ?? 0, known);
    const open = used < cap;
    if (open) this.used.set(linkId, used + 1);
    return this.later ? Promise.resolve(open) : open;
  }
  exhausted(linkId: number, cap: number, known: number): boolean | Promise<boolean> {
    const used = Math.max(this.used.get(linkId) ?? 0, known) >= cap;
    return this.later ? Promise.resolve(used) : used;
  }
  async forget(linkId: number): Promise<void> {
    this.used.delete(linkId);
  }
}

/** Round-robin positions in memory; `later` answers through promises. */
export class FakeRotation implements RotationCursor {
  readonly positions = new Map<number, number>();
  constructor(private readonly later = false) {}
  next(linkId: number, size: number, known: number): number | Promise<number> {
    const position = ((this.positions.get(linkId) ?? known) + 1) % size;
    this.positions.set(linkId, position);
    return this.later ? Promise.resolve(position) : position;
  }
}

/** Keeps what it is handed. */
export class FakeSink implements ClickSink {
  readonly recorded: Array<{ click: Click; rotation: number | undefined }> = [];
  record(click: Click, rotation?: number): void {
    this.recorded.push({ click, rotation });
  }
  async flush(): Promise<void> {}
  async close(): Promise<void> {}
}

export interface FakeVisitPorts extends VisitPorts {
  quota: FakeQuota;
  rotation: FakeRotation;
  sink: FakeSink;
}

/** The ports of a visit, in memory, at a fixed instant; `later`: quota and rotation answer through promises. */
export function fakeVisitPorts(now: number, later = false): FakeVisitPorts {
  return {
    quota: new FakeQuota(later),
    rotation: new FakeRotation(later),
    sink: new FakeSink(),
    stamper: {
      stamp: (v) => ({
        day: new Date(v.at).toISOString().slice(0, 10),
        hour: new Date(v.at).getUTCHours(),
        visitor: v.isBot ? null : `v:${v.address}`,
      }),
    },
    clock: { now: () => now },
  };
}
