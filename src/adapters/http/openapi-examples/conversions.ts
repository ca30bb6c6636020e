import type { AreaDocs } from './area.ts';
import { CONVERSION } from './records.ts';

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
