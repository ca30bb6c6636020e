import type { Conversion, ConversionStore, NewConversion } from '../../../src/core/conversions/conversion.ts';

/**
 * Conversions in memory, keyed as the unique index keys them. It holds no clicks, so it has no
 * clickGroups or conversionGroups (they throw): the service's unit tests never read results through it.
 */
export class MemoryConversions implements ConversionStore {
  readonly rows: Conversion[] = [];

  async record(c: NewConversion) {
    const found = this.rows.find((r) => r.clickId === c.clickId && r.name === c.name);
    if (found) return { conversion: { ...found }, created: false };
    const conversion = { ...c, id: this.rows.length + 1 };
    this.rows.push(conversion);
    return { conversion: { ...conversion }, created: true };
  }

  async namesOf(clickId: string, limit: number) {
    return this.rows
      .filter((r) => r.clickId === clickId)
      .map((r) => r.name)
      .slice(0, limit);
  }

  clickGroups(): never {
    throw new Error('MemoryConversions has no clicks');
  }

  conversionGroups(): never {
    throw new Error('MemoryConversions has no conversionGroups');
  }
}
