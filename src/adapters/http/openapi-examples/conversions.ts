import type { AreaDocs } from './area.ts';
import { CONVERSION } from './records.ts';

export const conversionsDocs: AreaDocs = {
  tag: 'Conversions',
  operations: {
    'POST /api/v1/conversions': {
      operationId: 'recordConversion',
      summary: 'Record a conversion of a click',
      request: {
        click_id: 'text',
        name: 'Spring',
      },
      response: { data: CONVERSION, status: 200 },
    },
  },
};
