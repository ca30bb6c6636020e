import type { MailMessage } from '../mail/mailer.ts';
import type { Invitation, Workspace } from './workspace.ts';

/** The web app's page where an invitation is accepted (signed out too: sign in or sign up, then join). */
export function invitationPageUrl(appUrl: string, token: string): string {
  return `${appUrl.replace(/\/$/, '')}/signup/invitation/${token}`;
}

/** The mail an invited person gets: who invited them, to what, as which role, and the link (it works once, for a week). */
export function invitationMail(
  invitation: Invitation,
  workspace: Workspace,
  inviter: string,
  link: string,
): MailMessage {
  return {
    to: invitation.email,
    subject: `${inviter} invited you to ${workspace.name} on linkpix`,
    text: [
      'Hello,',
      '',
      `${inviter} invited you to join the workspace "${workspace.name}" on linkpix as ${invitation.role}.`,
      'Open this link within 7 days to accept (sign in, or make an account with this email address, first):',
      '',
      link,
      '',
      'If you did not expect this, ignore this mail: nothing happens unless you accept.',
    ].join('\n'),
  };
}
