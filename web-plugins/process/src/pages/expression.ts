/**
 * The allow-listed expression language of gateway conditions, script lines and timer values, vetted as the
 * server vets it (plugins/process/expr.py): one Python-style expression of comparisons, `and`/`or`/`not`,
 * arithmetic, literals, lists, dicts, subscripts and calls of a few named functions. Attribute access,
 * imports, lambdas, comprehensions, slices, powers and any other call are refused.
 */

export const FUNCTIONS = new Set(['len', 'int', 'float', 'str', 'abs', 'min', 'max', 'round', 'bool']);
export const MAX_LENGTH = 500;
const MAX_STRING = 200;
const ASSIGN = /^\s*([A-Za-z_][A-Za-z0-9_]{0,63})\s*=(?!=)(.*)$/;
const OPERATORS = ['//', '==', '!=', '<=', '>=', '<', '>', '+', '-', '*', '/', '%', '(', ')', '[', ']', '{', '}', ',', ':'];
const WORD_OPERATORS = new Set(['and', 'or', 'not', 'in', 'is', 'if', 'else']);
const CONSTANTS = new Set(['True', 'False', 'None']);
const REFUSED_WORDS = new Set([
  'lambda', 'for', 'async', 'await', 'yield', 'import', 'from', 'as', 'def', 'class', 'del', 'global', 'nonlocal',
  'pass', 'raise', 'return', 'try', 'except', 'finally', 'while', 'with', 'assert', 'break', 'continue', 'elif',
]);

type Token = { kind: 'name' | 'number' | 'string' | 'op'; text: string };

class Refused extends Error {}

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const rest = text.slice(i);
    const space = /^\s+/.exec(rest);
    if (space) { i += space[0].length; continue; }
    if (rest[0] === '#') break;
    const number = /^(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?/.exec(rest);
    if (number) { tokens.push({ kind: 'number', text: number[0] }); i += number[0].length; continue; }
    const string = /^([rRbBuU]{0,2})('([^'\\\n]|\\.)*'|"([^"\\\n]|\\.)*")/.exec(rest);
    if (string) {
      if (string[2].length - 2 > MAX_STRING) throw new Refused('length');
      tokens.push({ kind: 'string', text: string[0] });
      i += string[0].length;
      continue;
    }
    const name = /^[\p{L}_][\p{L}\p{N}_]*/u.exec(rest);
    if (name) {
      if (/^['"]/.test(text.slice(i + name[0].length))) throw new Refused('string prefix');
      tokens.push({ kind: WORD_OPERATORS.has(name[0]) ? 'op' : 'name', text: name[0] });
      i += name[0].length;
      continue;
    }
    const op = OPERATORS.find((o) => rest.startsWith(o));
    if (!op || rest.startsWith('**') || rest.startsWith(':=')) throw new Refused(rest[0]);
    tokens.push({ kind: 'op', text: op });
    i += op.length;
  }
  return tokens;
}

/** A recursive-descent reading of the allowed grammar; any other construct is refused. */
class Reader {
  private at = 0;

  constructor(private readonly tokens: Token[]) {}

  private peek(offset = 0): Token | undefined { return this.tokens[this.at + offset]; }

  private is(text: string, offset = 0): boolean {
    const tok = this.peek(offset);
    return !!tok && tok.kind === 'op' && tok.text === text;
  }

  private take(text: string): boolean {
    if (!this.is(text)) return false;
    this.at += 1;
    return true;
  }

  private expect(text: string): void {
    if (!this.take(text)) throw new Refused('syntax');
  }

  readAll(): void {
    this.tuple(() => this.atEnd());
    if (!this.atEnd()) throw new Refused('syntax');
  }

  private atEnd(): boolean { return this.at >= this.tokens.length; }

  /** One or more expressions separated by commas (a trailing comma allowed) until `closed()`. */
  private tuple(closed: () => boolean): void {
    this.expression();
    while (this.take(',')) {
      if (closed()) return;
      this.expression();
    }
  }

  private expression(): void {
    this.or();
    if (this.take('if')) {
      this.or();
      this.expect('else');
      this.expression();
    }
  }

  private or(): void {
    this.and();
    while (this.take('or')) this.and();
  }

  private and(): void {
    this.not();
    while (this.take('and')) this.not();
  }

  private not(): void {
    if (this.take('not')) this.not();
    else this.comparison();
  }

  private comparison(): void {
    this.arith();
    for (;;) {
      if (['==', '!=', '<', '>', '<=', '>=', 'in'].some((o) => this.is(o))) this.at += 1;
      else if (this.is('not') && this.is('in', 1)) this.at += 2;
      else if (this.take('is')) this.take('not');
      else return;
      this.arith();
    }
  }

  private arith(): void {
    this.term();
    while (this.take('+') || this.take('-')) this.term();
  }

  private term(): void {
    this.factor();
    while (this.take('*') || this.take('//') || this.take('/') || this.take('%')) this.factor();
  }

  private factor(): void {
    if (this.take('-') || this.take('+')) this.factor();
    else this.primary();
  }

  private primary(): void {
    const callee = this.atom();
    let first = true;
    for (;;) {
      if (this.take('(')) {
        if (!first || !callee || !FUNCTIONS.has(callee)) throw new Refused('call');
        if (!this.take(')')) {
          this.tuple(() => this.is(')'));
          this.expect(')');
        }
      } else if (this.take('[')) {
        this.tuple(() => this.is(']'));
        if (this.is(':')) throw new Refused('slice');
        this.expect(']');
      } else {
        return;
      }
      first = false;
    }
  }

  /** Reads one atom; answers its name when it is a bare name (a possible callee). */
  private atom(): string | null {
    const tok = this.peek();
    if (!tok) throw new Refused('syntax');
    this.at += 1;
    if (tok.kind === 'name') {
      if (REFUSED_WORDS.has(tok.text) || tok.text.startsWith('_')) throw new Refused(tok.text);
      return CONSTANTS.has(tok.text) ? null : tok.text;
    }
    if (tok.kind === 'number') return null;
    if (tok.kind === 'string') {
      while (this.peek()?.kind === 'string') this.at += 1;
      return null;
    }
    if (tok.text === '(') {
      if (!this.take(')')) {
        this.tuple(() => this.is(')'));
        this.expect(')');
      }
      return null;
    }
    if (tok.text === '[') {
      if (!this.take(']')) {
        this.tuple(() => this.is(']'));
        this.expect(']');
      }
      return null;
    }
    if (tok.text === '{') {
      this.dict();
      return null;
    }
    throw new Refused('syntax');
  }

  private dict(): void {
    while (!this.take('}')) {
      this.expression();
      this.expect(':');
      this.expression();
      if (!this.take(',')) {
        this.expect('}');
        return;
      }
    }
  }
}

/** True when `expression` is one allowed expression (the server's `expr.check`). */
export function isAllowedExpression(expression: string): boolean {
  const text = expression.trim();
  if (!text || text.length > MAX_LENGTH) return false;
  try {
    const tokens = tokenize(text);
    if (!tokens.length) return false;
    new Reader(tokens).readAll();
    return true;
  } catch (e) {
    if (e instanceof Refused) return false;
    throw e;
  }
}

/** True when every line of a script task is `name = expression` (comments and blank lines aside) and there is
 * at least one (the server's `expr.check_script`). */
export function isAllowedScript(script: string): boolean {
  let lines = 0;
  for (const raw of script.split(/\r\n|\r|\n/)) {
    if (!raw.trim() || raw.trim().startsWith('#')) continue;
    const m = ASSIGN.exec(raw);
    if (!m || !isAllowedExpression(m[2])) return false;
    lines += 1;
  }
  return lines > 0;
}
