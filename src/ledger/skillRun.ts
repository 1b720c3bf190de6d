/**
 * The header line of a skill run as a command (src/skills/command.ts writes it); group 1 is
 * the skill's name. It lives with the ledger, which counts skill uses from it, so the ledger
 * needs nothing from the skills.
 */
export const SKILL_RUN_HEADER = /^Skill "([a-z0-9-]+)", run by the user as \//;
