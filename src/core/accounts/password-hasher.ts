/** Hashes people's passwords (slow and memory-hard on purpose); an adapter picks the algorithm. */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  /** False for a wrong password and for a hash it cannot read; never throws on either. */
  verify(hash: string, password: string): Promise<boolean>;
}
