import { LocalSlots } from './local-time.ts';
import { VisitorHasher } from './visitor-hash.ts';

export interface ClickStamp {
  day: string;
  hour: number;
  visitor: string | null;
}

/**
 * What the redirect adds to a click for statistics, at the moment of the visit: its local day
 * and hour in the account's zone, and the visitor hash of that day (the address is used here
 * and then forgotten).
 */
export class ClickStamper {
  private readonly slots = new LocalSlots();
  private readonly hasher: VisitorHasher;

  constructor(secret: string) {
    this.hasher = new VisitorHasher(secret);
  }

  stamp(visit: {
    linkId: number;
    at: number;
    timeZone: string;
    address: string;
    userAgent: string;
    isBot: boolean;
  }): ClickStamp {
    const { day, hour } = this.slots.of(visit.at, visit.timeZone);
    const visitor = visit.isBot ? null : this.hasher.hash(visit.linkId, day, visit.address, visit.userAgent);
    return { day, hour, visitor };
  }
}
