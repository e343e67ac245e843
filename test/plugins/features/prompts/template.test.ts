/** feature.prompts units: template parsing and variables, rendering rules, the LRU. */
import { expect } from 'chai';
import { GatewayError } from '../../../../core/index.js';
import { Lru } from '../../../../plugins/features/prompts/lru.js';
import { compilePrompt, renderPrompt } from '../../../../plugins/features/prompts/prompt.js';
import { compileText, hasVariable, renderText, TemplateError } from '../../../../plugins/features/prompts/template.js';
import { parsePromptRef } from '../../../../plugins/features/prompts/index.js';

function variablesOf(source: string) {
  const required = new Set<string>();
  const optional = new Set<string>();
  compileText(source, required, optional);
  return { required: [...required], optional: [...optional] };
}

describe('feature.prompts template', () => {
  it('top-level tags are required, section names optional, names inside sections neither', () => {
    expect(variablesOf('{{a}} {{{b}}} {{&c}} {{#d}}{{e}}{{/d}} {{^f}}{{g}}{{/f}} {{! note }} {{.}}')).to.deep.equal({
      required: ['a', 'b', 'c'],
      optional: ['d', 'f'],
    });
  });

  it('refuses partials and broken tags with the reason', () => {
    expect(() => variablesOf('{{> header}}')).to.throw(TemplateError, 'partials are not supported');
    expect(() => variablesOf('{{#open}}')).to.throw(TemplateError, 'Unclosed section "open"');
    expect(() => variablesOf('{{/close}}')).to.throw(TemplateError, 'Unopened section "close"');
  });

  it('renders without HTML escaping, numbers and booleans as text, objects as JSON, missing as empty', () => {
    const text = compileText('{{s}}|{{n}}|{{b}}|{{o}}|{{{raw}}}|{{missing}}', new Set(), new Set());
    expect(renderText(text, { s: '<a href="x">&</a>', n: 0, b: true, o: { k: ['v'] }, raw: '<i>' })).to.equal('<a href="x">&</a>|0|true|{"k":["v"]}|<i>|');
  });

  it('supports set-delimiter tags and sections over lists', () => {
    const text = compileText('{{=<% %>=}}<%#items%><%name%>;<%/items%>{{literal}}', new Set(), new Set());
    expect(renderText(text, { items: [{ name: 'a' }, { name: 'b' }] })).to.equal('a;b;{{literal}}');
  });

  it('hasVariable follows dotted names through own properties only', () => {
    expect(hasVariable({ a: { b: 0 } }, 'a.b')).to.equal(true);
    expect(hasVariable({ a: { b: null } }, 'a.b')).to.equal(true);
    expect(hasVariable({ a: {} }, 'a.b')).to.equal(false);
    expect(hasVariable({ a: 'str' }, 'a.length')).to.equal(false);
    expect(hasVariable({}, 'toString')).to.equal(false);
  });

  it('renderPrompt: messages of the caller make the template texts (and their variables) unused', () => {
    const prompt = compilePrompt('p', 1, 0, { model: 'm', messages: [{ role: 'user', content: 'hi {{name}}' }], temperature: 0.1 });
    expect(() => renderPrompt(prompt, {}, {})).to.throw(GatewayError, 'body.variables.name: is required by prompt "p" (version 1)');
    expect(renderPrompt(prompt, {}, { messages: [{ role: 'user', content: 'own' }] })).to.deep.equal({
      model: 'm', messages: [{ role: 'user', content: 'own' }], temperature: 0.1,
    });
    expect(renderPrompt(prompt, { name: 'Ada' }, { temperature: 1 })).to.deep.equal({
      model: 'm', messages: [{ role: 'user', content: 'hi Ada' }], temperature: 1,
    });
  });

  it('renderPrompt leaves non-text parts and other fields untouched', () => {
    const image = { type: 'image_url', image_url: { url: 'https://x/{{not}}' } };
    const prompt = compilePrompt('p', 1, 0, { model: 'm', messages: [{ role: 'user', content: [{ type: 'text', text: '{{x}}' }, image] }], tools: [{ type: 'function', function: { name: '{{t}}' } }] });
    const body = renderPrompt(prompt, { x: 'X' }, {});
    expect(body['messages']).to.deep.equal([{ role: 'user', content: [{ type: 'text', text: 'X' }, image] }]);
    expect(body['tools']).to.equal(prompt.template['tools']);
  });

  it('parsePromptRef: id or id@version', () => {
    expect(parsePromptRef('greet')).to.deep.equal({ id: 'greet' });
    expect(parsePromptRef('greet.v2_x-y@12')).to.deep.equal({ id: 'greet.v2_x-y', version: 12 });
    for (const bad of ['', 'a b', 'x@0', 'x@01', 'x@', '@1', 'x@1@2', 42, 'x'.repeat(129)]) expect(parsePromptRef(bad), String(bad)).to.equal(undefined);
  });

  it('Lru forgets the least recently used entry and expired ones', () => {
    const lru = new Lru<number>(2, 100);
    lru.set('a', 1, 0);
    lru.set('b', 2, 0);
    expect(lru.get('a', 10)).to.equal(1);
    lru.set('c', 3, 10);
    expect(lru.get('b', 10)).to.equal(undefined);
    expect(lru.get('a', 99)).to.equal(1);
    expect(lru.get('a', 100)).to.equal(undefined);
    const off = new Lru<number>(0);
    off.set('a', 1);
    expect(off.get('a')).to.equal(undefined);
  });
});
