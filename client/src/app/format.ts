const timeFormat = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });
const dateTimeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const shortDateFormat = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric' });

/** Clock time of an event, e.g. "10:54". */
export function formatTime(isoDate: string): string {
  return timeFormat.format(new Date(isoDate));
}

/** Date and time of a session's creation. */
export function formatDateTime(isoDate: string): string {
  return dateTimeFormat.format(new Date(isoDate));
}

/** As briefly as a list can say when: the time today, the day otherwise ("10:54", "Mar 1"). */
export function formatWhen(isoDate: string, now = new Date()): string {
  const date = new Date(isoDate);
  return date.toDateString() === now.toDateString() ? timeFormat.format(date) : shortDateFormat.format(date);
}

export function formatCount(count: number, singular: string, plural = `${singular}s`): string {
  return `${count.toLocaleString()} ${count === 1 ? singular : plural}`;
}
