import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifySchemaValidationError } from 'fastify/types/schema.js';
import { ValidationError } from '../../../core/shared/errors.ts';
import { messages } from '../../../core/shared/messages.ts';
import { fieldErrorsOf } from '../../shared/input/validation-errors.ts';
import type { Conversion } from '../../../core/conversions/conversion.ts';
import type { IdParams } from '../../shared/schemas/common.ts';
import type { ConversionBody, WinnerBody, WinnerParams } from '../schemas/conversions.ts';
import { saved } from '../envelopes.ts';
import { ruleWarnings } from '../../../core/rules/rule-warnings.ts';
import { iso } from '../../shared/presenters/records.ts';
import { linkRecord } from '../../shared/presenters/link-record.ts';
import type { ApiContext } from './context.ts';
import { apiActor } from '../audit-actor.ts';

type Req<T extends { Params?: unknown; Querystring?: unknown; Body?: unknown }> = FastifyRequest<T>;

function conversionRecord(c: Conversion) {
  return {
    id: c.id,
    link_id: c.linkId,
    click_id: c.clickId,
    rule: c.rule,
    variant: c.variant,
    name: c.name,
    value: c.value,
    currency: c.currency,
    clicked_at: iso(c.clickedAt),
    created_at: iso(c.createdAt),
  };
}

/**
 * The schema's findings on a conversion (its route attaches them), as the error handler would
 * answer them but for value, whose message says the spellings it takes, as the core's does.
 */
function refuseSchemaFaults(request: FastifyRequest): void {
  const failure = request.validationError as (Error & { validation?: unknown }) | undefined;
  if (!failure) return;
  if (!Array.isArray(failure.validation)) throw failure;
  throw new ValidationError(
    fieldErrorsOf(failure.validation as FastifySchemaValidationError[], { value: messages.conversionValue() }),
  );
}

/** Conversions recorded, results per rule and variant, a split's winner chosen (docs/api.md, Conversions). */
export function conversionHandlers(ctx: ApiContext) {
  return {
    record: async (request: Req<{ Body: ConversionBody }>, reply: FastifyReply) => {
      refuseSchemaFaults(request);
      const { conversion, created } = await ctx.conversions.record(request.account.id, request.body);
      const status = created ? 201 : 200;
      reply.code(status);
      return { data: conversionRecord(conversion), status };
    },
    results: async (request: Req<{ Params: IdParams }>) => {
      return { data: await ctx.conversions.results(request.account.id, request.params.id), status: 200 as const };
    },
    winner: async (request: Req<{ Params: WinnerParams; Body: WinnerBody }>) => {
      const { account, params, body } = request;
      const view = await ctx.conversions.chooseWinner(
        account,
        params.id,
        params.index,
        body.variant,
        apiActor(request),
      );
      return saved(linkRecord(view, ctx.urls), 200, ruleWarnings(view.link.rules));
    },
  };
}
