import type { AreaDocs } from './area.ts';
import { CONVERSION } from './records.ts';

/** GET /api/v1/stats/{id}?name=conversions: a split's two variants and the clicks no rule decided. */
export const CONVERSION_RESULTS = {
  data: [
    {
      rule: 0,
      variant: 0,
      url: 'https://shop.example/a',
      clicks: 120,
      conversions: { sale: { count: 5, value: 259.5, values: { EUR: 249.5, USD: 10 } } },
      rate: 0.0417,
      p_value: null,
    },
    {
      rule: 0,
      variant: 1,
      url: 'https://shop.example/b',
      clicks: 118,
      conversions: { sale: { count: 9, value: 431, values: { EUR: 431 } } },
      rate: 0.0763,
      p_value: 0.243,
    },
    { rule: null, variant: null, url: 'https://shop.example/', clicks: 14, conversions: {}, rate: 0, p_value: null },
  ],
  status: 200,
};

export const conversionsDocs: AreaDocs = {
  tag: 'Conversions',
  operations: {
    'POST /api/v1/conversions': {
      operationId: 'recordConversion',
      summary: 'Record a conversion of a click',
      request: {
        click_id: 'c_8Jk2Qx7Lm',
        name: 'purchase',
      },
      response: { data: CONVERSION, status: 200 },
    },
  },
};
