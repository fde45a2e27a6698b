// catrisk login: a key given (--key) is checked against GET /account before it is kept; without
// one, POST /signup makes an account and its key is kept. catrisk logout forgets the key.
import { existsSync } from 'node:fs';
import { answered, clientsOf, configFile, removeLogin, usageFailure, writeLogin } from '../client.js';
import { print, type Command } from '../command.js';

export const login: Command = {
  name: ['login'],
  args: '',
  summary: 'Keep a key for the commands that follow: the one given, or a new account\'s (POST /signup).',
  help: [
    '  --key KEY          a key you hold (checked with GET /account); without it, sign up',
    '  --label TEXT       the new account\'s label (signup only)',
    '  --email ADDRESS    the new account\'s email (signup only)',
    '',
    'Prints the account (never the secret) and keeps the key, with the URLs it is for, in',
    'config.json under the config folder, readable by you only (mode 0600).',
  ],
  options: { key: { type: 'string' }, label: { type: 'string' }, email: { type: 'string' } },
  positionals: 0,
  refuses: ({ format }) => (format === 'csv' ? 'An account is not served as CSV: use --format json or table.' : undefined),
  async run(context) {
    const { endpoint, values } = context;
    let key = values.key as string | undefined;
    let account: { id: string; [member: string]: unknown };
    if (key !== undefined) {
      if (values.label !== undefined || values.email !== undefined) throw usageFailure('--label and --email are for a new account: they do not go with --key.');
      account = (await answered(clientsOf(endpoint, key).api.GET('/account'))).data;
    } else {
      const body = {
        ...(typeof values.label === 'string' ? { label: values.label } : {}),
        ...(typeof values.email === 'string' ? { email: values.email } : {}),
      };
      const signup = (await answered(clientsOf(endpoint, undefined).api.POST('/signup', { body }))).data;
      key = signup.api_key.secret;
      // The secret is kept in the file, not printed: a terminal's scrollback is no place for it.
      const { secret: _kept, ...shown } = signup.api_key;
      account = { ...signup, api_key: shown };
    }
    const file = writeLogin(context.configDir, { url: endpoint.api, lab_url: endpoint.lab, key, account_id: account.id });
    context.err.write(`key kept in ${file}\n`);
    print(context, account);
  },
};

export const logout: Command = {
  name: ['logout'],
  args: '',
  summary: 'Forget the kept key (the account and its key stay valid on the service).',
  help: [],
  positionals: 0,
  forgets: true,
  async run(context) {
    const had = existsSync(configFile(context.configDir));
    removeLogin(context.configDir);
    context.err.write(had ? `removed ${configFile(context.configDir)}\n` : 'no key was kept\n');
  },
};
