const PIECES = /[A-Za-z]+|[0-9]+|[\u3000-\u9fff\uac00-\ud7af]|[^\sA-Za-z0-9]|\s+/g;

/**
 * An offline token estimate (no tokenizer download): words count one token per ~5 letters,
 * digits per 3, each CJK character and punctuation mark one, runs of whitespace beyond a
 * single space one. Close to BPE tokenizers on English prose and JSON schemas.
 *
 * @example
 * estimateTokens('{"type":"object"}') // 10: seven punctuation marks, "type" 1, "object" 2
 */
export function estimateTokens(text: string): number {
  let tokens = 0;
  for (const piece of text.match(PIECES) ?? []) {
    const c = piece.charCodeAt(0);
    if (piece === " ") continue;
    if ((c >= 65 && c <= 90) || (c >= 97 && c <= 122)) tokens += Math.ceil(piece.length / 5);
    else if (c >= 48 && c <= 57) tokens += Math.ceil(piece.length / 3);
    else tokens += 1;
  }
  return tokens;
}
