import { describePasswordHasherContract } from '../password-hasher-contract.ts';
import { Argon2Hasher } from '../../../src/adapters/passwords/argon2-hasher.ts';
import { plainHasher } from '../../support/fakes/account-fakes.ts';

describePasswordHasherContract('Argon2Hasher', new Argon2Hasher());
describePasswordHasherContract('plainHasher (fake)', plainHasher);
