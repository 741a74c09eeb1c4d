import { describe, expect, it } from 'vitest';
import { parseConninfo } from './conninfo.js';
import { maskSecrets, maskUrl, urlPassword } from './mask.js';

describe('secrets never shown', () => {
  it('masks the password of a connection string', () => {
    expect(maskUrl('postgres://ana:s3cr%40t@db.internal:5432/bench?sslmode=require')).toBe('postgres://ana:***@db.internal:5432/bench?sslmode=require');
    expect(maskUrl('postgresql://ana@db/bench?password=hunter2&x=1')).toBe('postgresql://ana@db/bench?password=***&x=1');
    expect(maskUrl('postgres://db/bench')).toBe('postgres://db/bench');
  });

  it('finds the password, decoded, and masks it raw and encoded in any text', () => {
    const url = 'postgres://ana:s3cr%40t@db/bench';
    expect(urlPassword(url)).toBe('s3cr@t');
    expect(urlPassword('postgres://db/x?password=pw1')).toBe('pw1');
    expect(urlPassword(undefined)).toBeUndefined();
    expect(maskSecrets('failed for s3cr@t and s3cr%40t', [urlPassword(url), undefined])).toBe('failed for *** and ***');
  });

  it('masks a password holding a raw @ (node-postgres reads the user information up to the last @)', () => {
    const url = 'postgres://ana:p@ssW0rd@db.internal:5432/bench';
    expect(maskUrl(url)).toBe('postgres://ana:***@db.internal:5432/bench');
    expect(urlPassword(url)).toBe('p@ssW0rd');
    expect(maskUrl('postgresql://ana:a@b:c@d@db/x?sslmode=require&password=q@r#f')).toBe('postgresql://ana:***@db/x?sslmode=require&password=***#f');
    // No user information: the @ of a query string is left alone.
    expect(maskUrl('postgres://db/x?application_name=a@b')).toBe('postgres://db/x?application_name=a@b');
  });

  it('masks keyword/value conninfo strings, quoted or not', () => {
    expect(maskUrl('host=db.internal port=5433 user=ana password=Hunter2 dbname=bench')).toBe('host=db.internal port=5433 user=ana password=*** dbname=bench');
    expect(maskUrl("host=db password = 'p@ss w\\'0rd' dbname=bench")).toBe('host=db password = *** dbname=bench');
    expect(maskUrl('PASSWORD=x1 host=db')).toBe('PASSWORD=*** host=db');
    expect(urlPassword("host=db password='p@ss w\\'0rd' dbname=bench")).toBe("p@ss w'0rd");
    expect(urlPassword('host=db password=Hunter2')).toBe('Hunter2');
    // A conninfo string netbench cannot read still gives its password up for masking.
    expect(urlPassword('host=db sslrootcert=/x password=Zz9')).toBe('Zz9');
    expect(parseConninfo("host=db port = 5433 password='a b\\' c'")).toEqual({ host: 'db', port: '5433', password: "a b' c" });
    expect(() => parseConninfo('host=db options=-cfoo password=Secret9')).toThrow(/keyword options is not supported/);
    expect(() => parseConninfo("host=db password='Secret9")).toThrow(/unterminated quoted value of password$/);
  });
});
