import type { Command } from '../command.js';
import { linksDelete, linksEdit, linksGet, linksList, shorten } from './links.js';
import { login, logout } from './login.js';
import { mcp } from './mcp.js';
import { qr } from './qr.js';
import { stats } from './stats.js';

/** Every command by its words. */
export const COMMANDS: Record<string, Command> = {
  login,
  logout,
  shorten,
  'links list': linksList,
  'links get': linksGet,
  'links edit': linksEdit,
  'links delete': linksDelete,
  stats,
  qr,
  mcp,
};

/**
 * The first words of the commands: the repository's bin/linkpix.js sends a command line that
 * starts with one of them here, and every other to the operator's commands.
 */
export const PEOPLE_COMMANDS = [...new Set(Object.keys(COMMANDS).map((words) => words.split(' ')[0]))];
