function pad2(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

/**
 * `YYYY-MM-DDTHH:MM:SSZ` for a Unix second in years 1970..9999.
 * Hand-rolled (Hinnant's days-to-civil) because Date#toISOString dominated generation time.
 */
export function formatIsoSeconds(epochSecond: number): string {
  const days = Math.floor(epochSecond / 86400);
  const secondOfDay = epochSecond - days * 86400;
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const dayOfEra = z - era * 146097;
  const yearOfEra = Math.floor((dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36524) - Math.floor(dayOfEra / 146096)) / 365);
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const mp = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  const hour = Math.floor(secondOfDay / 3600);
  const minute = Math.floor((secondOfDay % 3600) / 60);
  const second = secondOfDay % 60;
  return `${year}-${pad2(month)}-${pad2(day)}T${pad2(hour)}:${pad2(minute)}:${pad2(second)}Z`;
}
