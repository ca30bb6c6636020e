import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isUnfurler } from './unfurler.ts';
import { describeUserAgent } from './user-agent.ts';

const UNFURLERS: ReadonlyArray<[string, string]> = [
  ['Slack', 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)'],
  ['X/Twitter', 'Twitterbot/1.0'],
  ['Facebook', 'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)'],
  ['Facebook (Facebot)', 'Facebot'],
  ['LinkedIn', 'LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)'],
  ['Discord', 'Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)'],
  ['WhatsApp', 'WhatsApp/2.23.20.0 A'],
  ['Telegram', 'TelegramBot (like TwitterBot)'],
  [
    'iMessage',
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_11_1) AppleWebKit/601.2.4 (KHTML, like Gecko) Version/9.0.1 Safari/601.2.4 facebookexternalhit/1.1 Facebot Twitterbot/1.0',
  ],
];

const PEOPLE: ReadonlyArray<[string, string | undefined]> = [
  [
    'Chrome',
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36',
  ],
  [
    'Safari on iOS',
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
  ],
  ['Firefox', 'Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0'],
  [
    'Slack desktop app',
    'Mozilla/5.0 (Macintosh) AppleWebKit/537.36 (KHTML, like Gecko) Slack/4.36.0 Chrome/120.0 Safari/537.36',
  ],
  ['Googlebot (a crawler, no card)', 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'],
  ['none', undefined],
  ['empty', ''],
];

for (const [name, ua] of UNFURLERS) {
  test(`unfurler: ${name} gets the card, and is a bot`, () => {
    assert.equal(isUnfurler(ua), true);
    assert.equal(describeUserAgent(ua).isBot, true, 'counted apart, never as a click');
  });
}

for (const [name, ua] of PEOPLE) {
  test(`not an unfurler: ${name}`, () => assert.equal(isUnfurler(ua), false));
}

test('a token past the cut is not read', () => {
  assert.equal(isUnfurler(`${'x'.repeat(600)} Twitterbot/1.0`), false);
});
