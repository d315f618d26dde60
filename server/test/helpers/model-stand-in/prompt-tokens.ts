import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import type {
  ChatCompletionCreateParams,
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from 'openai/resources/chat/completions';

/**
 * How a chat-completions provider counts a prompt with o200k_base (the tokenizer of gpt-4o and
 * later). OpenAI does not publish its formula; this reproduces what is public:
 *
 * - Messages, after OpenAI's cookbook ("How to count tokens with tiktoken"): each message is
 *   `<|start|>{role}<|message|>{content}<|end|>`, 3 tokens besides its role and content, 1 more
 *   with a `name`; the reply is primed with `<|start|>assistant<|message|>`, 3 tokens.
 * - Tool definitions, after the format OpenAI published for its open-weight models (the harmony
 *   renderer, `json_schema_to_typescript` and `template_tools_section`): a TypeScript namespace
 *   (`namespace functions { // description \n type name = (_: {...}) => any; }`) at the end of the
 *   system (developer) message, every description kept, nested objects and `oneOf` variants
 *   written out. On the cookbook's tool example (one function, two properties) this counts 102
 *   tokens where the API reported 101 for gpt-4o. Deeply nested schemas such as
 *   continue_session's count more than the older community estimate (gpt-tokenizer's
 *   `countChatCompletionTokens`, which drops descriptions below the first level and writes
 *   `oneOf` as `any`); erring high is the safe side for a stand-in that refuses overflow.
 * - A `response_format` JSON schema, likewise after harmony: `# Response Formats` and the schema
 *   at the end of the developer message.
 * - Assistant tool calls: each call's name and arguments plus 3 tokens, as the cookbook's
 *   community counters count a `function_call`. Images: 85 tokens at `detail: low`, otherwise 765
 *   (a 1024×1024 image at high detail: 85 + 4 tiles × 170); the bytes are not decoded.
 */
export interface PromptCount {
  /** What the provider compares with its context length. */
  total: number;
  /** The part the tool definitions add. */
  tools: number;
  /** The part a `response_format` schema adds. */
  responseFormat: number;
  /** Each message's tokens (the first with the tools and formats appended to it, when it carries them). */
  perMessage: number[];
}

const MESSAGE_OVERHEAD = 3;
const NAME_OVERHEAD = 1;
const REPLY_PRIMING = 3;
const TOOL_CALL_OVERHEAD = 3;
const IMAGE_TOKENS_LOW = 85;
const IMAGE_TOKENS_HIGH = 765;

/** Text that looks like a special token is ordinary text to a provider's tokenizer of user input. */
const SPECIAL_TOKENS_AS_TEXT = { disallowedSpecial: new Set<string>() };

export function textTokens(text: string): number {
  return countTokens(text, SPECIAL_TOKENS_AS_TEXT);
}

export function countPrompt(body: ChatCompletionCreateParams): PromptCount {
  const messages = body.messages ?? [];
  const toolsText = body.tools?.length ? toolNamespace(body.tools) : '';
  const formatText = responseFormatSection(body.response_format);
  const perMessage = messages.map((message) => messageTokens(message, ''));
  const bare = REPLY_PRIMING + sum(perMessage);
  const withTools = toolsText ? REPLY_PRIMING + sum(withDeveloperText(messages, perMessage, toolsText)) : bare;
  const developerText = [toolsText, formatText].filter(Boolean).join('\n\n');
  const counted = developerText ? withDeveloperText(messages, perMessage, developerText) : [0, ...perMessage];
  const total = REPLY_PRIMING + sum(counted);
  return { total, tools: withTools - bare, responseFormat: total - withTools, perMessage: counted.slice(1) };
}

function sum(values: number[]): number {
  return values.reduce((total, value) => total + value, 0);
}

/**
 * The messages' tokens with `developerText` (tools, response formats) at the end of the first
 * message when it is a system or developer message, else in a system message of its own before
 * them: the first entry is that message's tokens (0 when there is none), then one per message.
 */
function withDeveloperText(messages: ChatCompletionMessageParam[], perMessage: number[], developerText: string): number[] {
  const leadsWithInstructions = messages[0]?.role === 'system' || messages[0]?.role === 'developer';
  if (!leadsWithInstructions) return [MESSAGE_OVERHEAD + textTokens('system') + textTokens(developerText), ...perMessage];
  return [0, messageTokens(messages[0], developerText), ...perMessage.slice(1)];
}

function messageTokens(message: ChatCompletionMessageParam, appended: string): number {
  let tokens = MESSAGE_OVERHEAD + textTokens(message.role);
  if ('name' in message && message.name) tokens += NAME_OVERHEAD + textTokens(message.name);
  const text = contentText(message.content);
  tokens += textTokens(appended ? (text ? `${text}\n\n${appended}` : appended) : text);
  tokens += contentImageTokens(message.content);
  if (message.role === 'assistant') {
    for (const call of message.tool_calls ?? []) {
      if (call.type !== 'function') continue;
      tokens += TOOL_CALL_OVERHEAD + textTokens(call.function.name) + textTokens(call.function.arguments);
    }
    if (message.refusal) tokens += textTokens(message.refusal);
  }
  return tokens;
}

type MessageContent = ChatCompletionMessageParam['content'];

/** The text a message's content holds: the string, or its text parts one after the other. */
export function contentText(content: MessageContent): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part) => ('text' in part && typeof part.text === 'string' ? part.text : 'refusal' in part ? part.refusal : '')).join('');
}

function contentImageTokens(content: MessageContent): number {
  if (!Array.isArray(content)) return 0;
  return content.reduce((sum, part) => {
    if (part.type !== 'image_url') return sum;
    return sum + (part.image_url.detail === 'low' ? IMAGE_TOKENS_LOW : IMAGE_TOKENS_HIGH);
  }, 0);
}

type JsonSchema = Record<string, unknown>;

/** The tool definitions as the model reads them: a TypeScript namespace of function types. */
export function toolNamespace(tools: ChatCompletionTool[]): string {
  const entries = tools.flatMap((tool) => {
    if (tool.type !== 'function') return [];
    const { name, description, parameters } = tool.function;
    const comments = (description ?? '').split('\n').filter(Boolean).map((line) => `// ${line}\n`).join('');
    const properties = (parameters as JsonSchema | undefined)?.properties;
    const signature =
      parameters && properties && Object.keys(properties as object).length > 0 ? `(_: ${typeScriptType(parameters as JsonSchema, '')})` : '()';
    return [`${comments}type ${name} = ${signature} => any;\n`];
  });
  return ['# Tools', '', '## functions', '', 'namespace functions {', '', ...entries, '} // namespace functions'].join('\n');
}

function responseFormatSection(format: ChatCompletionCreateParams['response_format']): string {
  if (format?.type !== 'json_schema') return '';
  const { name, description, schema } = format.json_schema;
  return ['# Response Formats', '', `## ${name}`, '', ...(description ? [`// ${description}`] : []), JSON.stringify(schema ?? {})].join('\n');
}

function literal(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}

function defaultComment(schema: JsonSchema): string {
  return 'default' in schema ? ` // default: ${literal(schema.default)}` : '';
}

/** A JSON schema written as a TypeScript type, the way the tools namespace shows it. */
export function typeScriptType(schema: JsonSchema, indent: string): string {
  const variants = (schema.oneOf ?? schema.anyOf) as JsonSchema[] | undefined;
  if (Array.isArray(variants)) {
    return variants.map((variant) => `\n${indent} | ${typeScriptType(variant, `${indent}   `)}${variantComment(variant)}`).join('');
  }
  if ('const' in schema) return literal(schema.const);
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum.map(literal).join(' | ');
  const type = schema.type;
  if (Array.isArray(type)) return type.map((name) => (name === 'integer' ? 'number' : String(name))).join(' | ');
  switch (type) {
    case 'object':
      return objectType(schema, indent);
    case 'array':
      return schema.items ? `${typeScriptType(schema.items as JsonSchema, indent)}[]` : 'Array<any>';
    case 'integer':
    case 'number':
      return 'number';
    case 'string':
    case 'boolean':
    case 'null':
      return type;
    default:
      return 'any';
  }
}

function variantComment(variant: JsonSchema): string {
  return typeof variant.description === 'string' ? ` // ${variant.description}` : '';
}

function objectType(schema: JsonSchema, indent: string): string {
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const lines: string[] = [];
  if (typeof schema.description === 'string') lines.push(`${indent}// ${schema.description}\n`);
  lines.push('{\n');
  for (const [key, value] of Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>)) {
    if (typeof value.description === 'string') lines.push(`${indent}// ${value.description}\n`);
    const optional = required.has(key) ? '' : '?';
    if (Array.isArray(value.oneOf ?? value.anyOf)) {
      lines.push(`${indent}${key}${optional}:${typeScriptType(value, indent)}\n${indent},\n`);
    } else {
      lines.push(`${indent}${key}${optional}: ${typeScriptType(value, `${indent}    `)},${defaultComment(value)}\n`);
    }
  }
  lines.push(`${indent}}`);
  return lines.join('');
}
