import { Linkpix, LinkpixError } from '@linkpix/sdk';
import { text, type Command } from '../command.js';
import { configFile, forgetLogin, saveLogin } from '../config-file.js';
import { AuthError, UsageError } from '../exit-codes.js';
import { json } from '../output.js';
import { prompt } from '../prompt.js';

/** The server's address as the SDK takes it: http(s), no trailing slash. */
function serverUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`"${text}" is not a URL (such as https://lpx.example)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError('the URL must be http or https');
  return url.href.replace(/\/+$/, '');
}

export const login: Command = {
  synopsis: 'login [--url URL] [--key KEY]',
  summary: 'check a key and keep it (asks for what is not given)',
  options: { url: { type: 'string' }, key: { type: 'string' } },
  args: [],
  async run({ flags, env, io }) {
    let url = text(flags, 'url');
    let key = text(flags, 'key');
    if (url === undefined || key === undefined) {
      const questions = prompt(io.input, io.errors);
      try {
        url ??= await questions.ask('linkpix server URL: ');
        key ??= await questions.ask('API key: ', { hidden: true });
      } finally {
        questions.close();
      }
    }
    if (!url || !key) throw new UsageError('login needs a URL and a key');
    const server = serverUrl(url);
    let account;
    try {
      account = await new Linkpix({ url: server, apiKey: key }).account.get();
    } catch (error) {
      if (error instanceof LinkpixError && error.status === 401)
        throw new AuthError(`${server} refused the key: nothing was saved.`);
      throw error;
    }
    const file = saveLogin(env, { url: server, api_key: key });
    io.out(flags.json ? json(account) : `Logged in to ${server} as ${account.email} (saved in ${file}).`);
  },
};

export const logout: Command = {
  synopsis: 'logout',
  summary: 'forget the saved key',
  options: {},
  args: [],
  async run({ flags, env, io }) {
    const removed = forgetLogin(env);
    if (flags.json) io.out(json({ logged_out: removed }));
    else io.out(removed ? `Logged out (removed ${configFile(env)}).` : 'Not logged in.');
  },
};
