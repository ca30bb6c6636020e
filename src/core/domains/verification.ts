import { randomToken } from '../shared/secrets.ts';
import type { Domain } from './domain.ts';

/** What an owner publishes to prove control of a domain's name, and where: either place will do. */
export interface DomainVerification {
  name: string;
  token: string;
  /** The DNS name whose TXT record holds the token. */
  txtName: string;
  /** The file whose body is the token; plain http, since a domain not yet pointed here has no certificate for it. */
  fileUrl: string;
}

const TXT_PREFIX = '_linkpix.';
const FILE_PATH = '/.well-known/linkpix/';

/** 144 random bits, URL- and DNS-safe. */
export const newVerificationToken = (): string => randomToken(18);

export function verificationOf(domain: Pick<Domain, 'name' | 'verificationToken'>): DomainVerification {
  const token = domain.verificationToken;
  return {
    name: domain.name,
    token,
    txtName: `${TXT_PREFIX}${domain.name}`,
    fileUrl: `http://${domain.name}${FILE_PATH}${token}`,
  };
}
