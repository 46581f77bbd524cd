// The retry schedule as the README shows it, rendered from the deliverer's one constant;
// test/docs/retry-schedule.test.ts keeps the README's table equal to this.
import { MAX_RETRIES, RETRY_SCHEDULE_MINUTES } from '../sandbox/settings.js';

/** `5 min`, `2 h 40 min`, `3 d 13 h 15 min`. */
function span(minutes: number): string {
  const parts: string[] = [];
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  if (days) parts.push(`${days} d`);
  if (hours) parts.push(`${hours} h`);
  if (minutes % 60 || parts.length === 0) parts.push(`${minutes % 60} min`);
  return parts.join(' ');
}

export function retryScheduleTable(): string {
  const rows = ['| Attempt | Waits after the failure before it | Since the first try |', '|---|---|---|', '| 1 (first try) | — | 0 |'];
  let elapsed = 0;
  RETRY_SCHEDULE_MINUTES.forEach((wait, i) => {
    elapsed += wait;
    rows.push(`| ${i + 2} (retry ${i + 1}${i + 1 === MAX_RETRIES ? ', the last' : ''}) | ${span(wait)} | ${span(elapsed)} |`);
  });
  return `${rows.join('\n')}\n`;
}
