import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Click } from '../../../core/clicks/click.ts';
import type { ClickSink } from '../../../core/clicks/ports.ts';
import { aClick } from '../../../../test/support/clicks.ts';
import { clickSinkChain } from './sink-chain.ts';

test('each click goes to the writer sink first, then to every tap in the order named; flush and close are the sink’s', async () => {
  const seen: string[] = [];
  const sink: ClickSink = {
    record: (click, rotation) => void seen.push(`sink ${click.linkId}@${String(rotation)}`),
    flush: async () => void seen.push('sink flush'),
    close: async () => void seen.push('sink close'),
  };
  const tap = (name: string) => ({ take: (click: Click) => void seen.push(`${name} ${click.linkId}`) });
  const chain = clickSinkChain(sink, { webhooks: tap('webhooks'), live: tap('live') });
  chain.record(aClick({ linkId: 7 }), 2);
  chain.record(aClick({ linkId: 8 }));
  await chain.flush();
  await chain.close();
  assert.deepEqual(seen, [
    'sink 7@2',
    'webhooks 7',
    'live 7',
    'sink 8@undefined',
    'webhooks 8',
    'live 8',
    'sink flush',
    'sink close',
  ]);
});
