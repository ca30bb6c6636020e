import { Type } from '@sinclair/typebox';
import { Timestamp } from '../../shared/schemas/common.ts';

export const AccountRecord = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    email: Type.String(),
    timezone: Type.String(),
    created_at: Timestamp,
  },
  { title: 'Account' },
);
