import type { AreaDocs } from './area.ts';
import { ACCOUNT } from './records.ts';

export const accountDocs: AreaDocs = {
  tag: 'Account',
  operations: {
    'GET /api/v1/account': {
      operationId: 'getAccount',
      summary: 'Read the account of the key',
      response: { data: ACCOUNT, status: 200 },
    },
  },
};
