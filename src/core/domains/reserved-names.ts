/** Host names the operator keeps from every account (the CLI's `domains reserve`). */
export interface ReservedNames {
  isReserved(name: string): Promise<boolean>;
  /** False when the name was reserved already. */
  reserve(name: string, now: number): Promise<boolean>;
  /** False when the name was not reserved. */
  unreserve(name: string): Promise<boolean>;
}
