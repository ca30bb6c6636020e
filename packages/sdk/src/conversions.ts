import type { Client } from 'openapi-fetch';
import type { paths } from './openapi.js';
import { ok } from './answer.js';
import type { Conversion, ConversionInput } from './types.js';

/** `linkpix.conversions`: what visitors did after a tracked link sent them on (docs/api.md, Conversions). */
export class Conversions {
  constructor(private readonly api: Client<paths, 'application/json'>) {}

  /**
   * Records a conversion against the visit's click id. Once per click and name: a repeat answers
   * the first one, unchanged.
   */
  async record(input: ConversionInput): Promise<Conversion> {
    return (await ok(this.api.POST('/api/v1/conversions', { body: input }))).data;
  }
}
