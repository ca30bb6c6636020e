/** Signing up, in and out. */
export const auth = {
  signUpTitle: 'Create your account',
  signInTitle: 'Sign in',
  name: 'Name',
  email: 'Email',
  password: 'Password',
  passwordHint: 'At least 8 characters.',
  remember: 'Keep me signed in',
  signUp: 'Create account',
  signIn: 'Sign in',
  haveAccount: 'Already have an account?',
  noAccount: 'No account yet?',
  signupClosed: 'New accounts are made by the operator of this service.',
  wrongCredentials: 'The email or password is wrong.',
  signedOut: 'You are signed out.',
  welcome: 'Your account is ready.',
  tooManySignUps: (seconds: number) =>
    `Too many sign-ups from here or for this email. Try again in ${seconds < 120 ? `${seconds} seconds` : `${Math.ceil(seconds / 60)} minutes`}.`,
} as const;
