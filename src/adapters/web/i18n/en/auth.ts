/** Signing up, in and out. */
export const auth = {
  signUpTitle: 'Create your account',
  signInTitle: 'Sign in',
  name: 'Name',
  email: 'Email',
  password: 'Password',
  passwordHint: 'At least 8 characters.',
  invitedEmailHint: 'The invitation was sent to this address: the account is made with it.',
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
  sso: {
    title: 'Single sign-on',
    signInWith: (name: string) => `Sign in with ${name}`,
    defaultName: 'single sign-on',
    or: 'Or with your email and password:',
    backToSignIn: 'Back to sign in',
    refused: {
      unverified:
        'Your provider has not confirmed your email address, so it cannot be matched to an account here. Confirm it with your provider, then try again.',
      domain: 'Your email address is not one of the domains allowed to sign in here. Ask the operator of this service.',
      closed:
        'There is no account here for your email address, and new accounts are made by the operator of this service.',
      suspended: 'This account is suspended. Ask the operator of this service.',
      password:
        'An account with your email address already signs in here with a password. Sign in with your email and password instead.',
      expired: 'This sign-in took too long or was started in another browser. Start again.',
      rejected: 'The answer from your provider could not be checked, so you are not signed in. Start again.',
      unreachable: 'Your provider could not be reached. Try again in a moment.',
      taken:
        'This identity at your provider already signs in to another account here. Sign in with it to reach that account, or unlink it there first.',
    },
    backToSecurity: 'Back to security',
  },
} as const;
