// Every CLI command, in the order the global help lists them: the one list the dispatch (src/cli.ts),
// the help (src/cli/help.ts) and docs/cli.md's CLI block are derived from.
import type { CliCommand } from '../command.js';
import { abCli } from './ab.js';
import { bisectCli } from './bisect.js';
import { buildCli } from './build.js';
import { compareCli } from './compare.js';
import {
  experimentCompareCli,
  experimentDownloadCli,
  experimentPublishCli,
  experimentReportCli,
  experimentRunCli,
  experimentStatusCli,
  experimentUploadCli,
  experimentWaitCli,
} from './experiment.js';
import { historyExportGabCli } from './history-export-gab.js';
import { historyImportGabCli } from './history-import-gab.js';
import { historyPublishCli } from './history-publish.js';
import { mergeCli } from './merge.js';
import { planCli } from './plan.js';
import { profileCli } from './profile.js';
import { reportCli } from './report.js';
import { runCli } from './run.js';
import { siteCli } from './site.js';

export const COMMANDS: readonly CliCommand[] = [
  runCli,
  abCli,
  profileCli,
  bisectCli,
  planCli,
  mergeCli,
  buildCli,
  reportCli,
  compareCli,
  historyPublishCli,
  historyImportGabCli,
  historyExportGabCli,
  siteCli,
  experimentRunCli,
  experimentUploadCli,
  experimentWaitCli,
  experimentDownloadCli,
  experimentCompareCli,
  experimentReportCli,
  experimentPublishCli,
  experimentStatusCli,
];
