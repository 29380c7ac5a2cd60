/**
 * Unit tests of the tool registry (src/shared/tools.ts) and the tools' effects (src/workflows/tools.ts):
 * the JSON schema each tool is offered with (the hand-written schemas the model was offered before the
 * registry, kept as they were), arguments refused by a tool's schema answered as a tool error, and the
 * tools each channel offers. And the custom tools' JSON Schema check (src/services/tools.ts): the param
 * that names the bad place inside `parameters`.
 */
import { expect } from 'chai';
import { CHANNEL_TOOLS, TOOLS, parseToolArguments, toolFunction, toolJsonSchema } from '../../src/shared/tools';
import type { FormDefinition, FormValues } from '../../src/shared/forms';
import type { TransferDestination } from '../../src/shared/dialing';
import { applyTool, channelTools, type ToolEffect, type ToolStop } from '../../src/workflows/tools';
import { checkToolParameters, foreignSchemaProblem, jsonPointerParam, keywordPointer } from '../../src/services/tools';

/** A campaign's form of one required yes/no field, and no values yet. */
const attendingForm = (): { definition: FormDefinition; values: FormValues | null } => ({
  definition: {
    id: 'form_1',
    name: 'RSVP',
    fields: [{ key: 'attending', type: 'boolean', description: null, required: true, options: null }],
  },
  values: null,
});

describe('tool registry', () => {
  it('derives each JSON schema the model is offered from the zod schema', () => {
    expect(toolJsonSchema('end_call')).to.deep.equal({ type: 'object', properties: {}, additionalProperties: false });
    expect(toolJsonSchema('search_knowledge')).to.deep.equal({
      type: 'object',
      properties: { query: { type: 'string', description: 'what to look for, in a few words' } },
      required: ['query'],
      additionalProperties: false,
    });
    expect(toolJsonSchema('handoff_to_person')).to.deep.equal({
      type: 'object',
      properties: { reason: { type: 'string', description: 'why a person is needed, in a few words' } },
      additionalProperties: false,
    });
    expect(toolJsonSchema('fill_form')).to.deep.equal({
      type: 'object',
      properties: {
        fields: {
          type: 'object',
          description: 'values by field key, e.g. {"attending": true}',
          additionalProperties: true,
        },
      },
      required: ['fields'],
      additionalProperties: false,
    });
    expect(toolFunction('end_call')).to.deep.equal({
      name: 'end_call',
      description: 'Hang up: the conversation is over.',
      parameters: { type: 'object', properties: {}, additionalProperties: false },
    });
  });

  it("offers transfer_call with exactly the destinations' names (an enum), and no number field", () => {
    const offer = {
      destinations: [
        { name: 'billing', description: 'Billing questions and refunds' },
        { name: 'sales', description: null },
      ],
      hasDefault: false,
    };
    expect(toolFunction('transfer_call', offer)).to.deep.equal({
      name: 'transfer_call',
      description:
        "Transfer the caller to a person at one of the organization's destinations: billing (Billing questions and refunds); sales.",
      parameters: {
        type: 'object',
        properties: {
          destination: {
            type: 'string',
            enum: ['billing', 'sales'],
            description: "the destination's name, one of: billing, sales",
          },
        },
        required: ['destination'],
        additionalProperties: false,
      },
    });
    // With the agent's `transfer_to` as the default, the destination may be omitted.
    const withDefault = toolFunction('transfer_call', { ...offer, hasDefault: true });
    expect(withDefault.parameters).to.not.have.property('required');
    expect(withDefault.description).to.match(/Without a destination: the default one\.$/);
    // No offer (a call made before destinations existed): the default destination only, nothing to write.
    expect(toolFunction('transfer_call').parameters).to.deep.equal({
      type: 'object',
      properties: {},
      additionalProperties: false,
    });
  });

  it('parses arguments with the same schema: unknown keys dropped, a bad argument becomes a tool error', () => {
    expect(parseToolArguments('handoff_to_person', '{"reason":"asked","why":"asked"}')).to.deep.equal({
      ok: true,
      args: { reason: 'asked' },
    });
    expect(parseToolArguments('end_call', '')).to.deep.equal({ ok: true, args: {} });
    expect(parseToolArguments('transfer_call', '{"to":42}')).to.deep.equal({
      ok: false,
      error: 'Error: the arguments of transfer_call are invalid: to: Invalid input: expected string, received number.',
    });
    const missing = parseToolArguments('search_knowledge', '{}');
    expect(missing.ok).to.equal(false);
    expect(!missing.ok && missing.error).to.match(/^Error: the arguments of search_knowledge are invalid: query: /);
    expect(parseToolArguments('fill_form', '{"fields":[1]}').ok).to.equal(false);
    expect(parseToolArguments('end_call', '{nope')).to.deep.equal({
      ok: false,
      error: 'Error: the arguments of end_call are not valid JSON.',
    });
  });

  it('lists the tools of each channel', () => {
    expect(CHANNEL_TOOLS).to.deep.equal({
      phone_call: ['end_call', 'transfer_call', 'search_knowledge', 'opt_out'],
      campaign_call: ['end_call', 'transfer_call', 'search_knowledge', 'fill_form', 'opt_out'],
      conversation: ['handoff_to_person'],
      widget: ['handoff_to_person'],
    });
    for (const names of Object.values(CHANNEL_TOOLS)) for (const name of names) expect(TOOLS).to.have.property(name);
  });
});

describe('tool effects', () => {
  const callback = {
    orgId: 'org_1',
    livemode: false,
    agentId: 'agt_1',
    callbackOf: 'call_1',
    to: '+14155550123',
    from: null,
    contactId: null,
  };
  const callTarget = (stops: ToolStop[]) => ({
    context: { orgId: 'org_1', livemode: false, agentId: 'agt_1', contactId: null },
    room: false,
    defaultTransferTo: '+14155550199',
    transferMode: 'cold' as const,
    stop: (request: ToolStop) => void stops.push(request),
    warmTransfer: () => 'not in this test',
    callback,
    sendDigits: async () => true,
    optOut: { orgId: 'org_1', livemode: false, callId: 'call_1', phone: '+14155550123' },
    // A call made before transfer destinations existed (its snapshot has none): the model writes `to`.
    destinations: null as TransferDestination[] | null,
    checkTransfer: async (): Promise<string | null> => null,
  });

  it("builds a channel's handler table in the channel's order", () => {
    expect(Object.keys(channelTools('phone_call', callTarget([])))).to.deep.equal([...CHANNEL_TOOLS.phone_call]);
    const form = attendingForm();
    expect(Object.keys(channelTools('campaign_call', { ...callTarget([]), form }))).to.deep.equal([
      ...CHANNEL_TOOLS.campaign_call,
    ]);
    // Optional tools only when the agent enables them, after the channel's own; never on the widget.
    expect(Object.keys(channelTools('phone_call', callTarget([]), ['schedule_callback']))).to.deep.equal([
      ...CHANNEL_TOOLS.phone_call,
      'schedule_callback',
    ]);
    // A default tool the agent switches off (`opt_out_tool: false`) is not offered.
    expect(Object.keys(channelTools('phone_call', callTarget([]), undefined, ['opt_out']))).to.deep.equal(
      CHANNEL_TOOLS.phone_call.filter((t) => t !== 'opt_out'),
    );
    expect(
      Object.keys(channelTools('conversation', { requestHandoff: () => undefined, callback }, ['schedule_callback'])),
    ).to.deep.equal(['handoff_to_person', 'schedule_callback']);
    expect(
      Object.keys(channelTools('widget', { requestHandoff: () => undefined, callback }, ['schedule_callback'])),
    ).to.deep.equal(['handoff_to_person']);
    expect(Object.keys(channelTools('widget', { requestHandoff: () => undefined, callback }))).to.deep.equal([
      'handoff_to_person',
    ]);
  });

  it('applies an offered tool and answers unknown tools, bad JSON and bad arguments to the model', () => {
    const stops: ToolStop[] = [];
    const tools = channelTools('phone_call', callTarget(stops));
    expect(applyTool(tools, { id: 't1', name: 'transfer_call', arguments: '{}' })).to.deep.equal({
      summary: 'Transferring to +14155550199.',
      ends: true,
    });
    expect(stops).to.deep.equal([{ status: 'transferred', reason: 'transferred', transferTo: '+14155550199' }]);
    expect(applyTool(tools, { id: 't2', name: 'transfer_call', arguments: '{"to":"nowhere"}' })).to.deep.equal({
      summary: 'Error: no valid transfer destination (E.164 number, sip: or client: address).',
      ends: false,
    });
    expect(applyTool(tools, { id: 't3', name: 'transfer_call', arguments: '{"to":7}' })).to.deep.equal({
      summary:
        'Error: the arguments of transfer_call are invalid: to: Invalid input: expected string, received number.',
      ends: false,
    });
    expect((applyTool(tools, { id: 't4', name: 'fill_form', arguments: '{}' }) as ToolEffect).summary).to.match(
      /not available/,
    );
    expect(applyTool(tools, { id: 't5', name: 'end_call', arguments: '{nope' })).to.deep.equal({
      summary: 'Error: the arguments of end_call are not valid JSON.',
      ends: false,
    });
    expect(applyTool(tools, { id: 't6', name: 'end_call', arguments: '{}' })).to.deep.equal({
      summary: 'Call ended.',
      ends: true,
    });
    expect(stops).to.have.length(2);
  });

  it('transfers only to a named destination on a call with destinations: a number, another key or an unknown name is a tool error', async () => {
    const stops: ToolStop[] = [];
    const checked: string[] = [];
    const destinations: TransferDestination[] = [
      { name: 'billing', to: '+14155550111', description: 'Billing', warm: null },
      { name: 'desk', to: 'sip:desk@pbx.example.com', description: null, warm: false },
      { name: 'premium', to: '+19002345678', description: null, warm: null },
    ];
    const target = {
      ...callTarget(stops),
      destinations,
      checkTransfer: async (to: string) => {
        checked.push(to);
        return to === '+19002345678' ? 'Destination not allowed: a premium-rate number.' : null;
      },
    };
    const tools = channelTools('phone_call', target);
    const call = (args: string) => applyTool(tools, { id: 't', name: 'transfer_call', arguments: args });
    for (const args of ['{"to":"+881612345678"}', '{"destination":"billing","to":"+881612345678"}'])
      expect(await call(args), args).to.deep.equal({
        summary:
          'Error: transfer_call takes only "destination", the name of one of the organization\'s destinations (billing, desk, premium); numbers and addresses cannot be called. Nobody was called.',
        ends: false,
      });
    expect(await call('{"destination":"+881612345678"}')).to.deep.equal({
      summary:
        'Error: "+881612345678" is not one of the organization\'s transfer destinations (billing, desk, premium). Nobody was called.',
      ends: false,
    });
    // A listed destination the dialing permissions refuse (checked again at the transfer): a tool error.
    expect(await call('{"destination":"premium"}')).to.deep.equal({
      summary: 'Error: Destination not allowed: a premium-rate number. Nobody was called.',
      ends: false,
    });
    expect(stops, 'nothing transferred yet').to.deep.equal([]);
    expect(await call('{"destination":"billing"}')).to.deep.equal({
      summary: 'Transferring to billing (+14155550111).',
      ends: true,
    });
    expect(await call('{}'), 'no name: the agent default').to.deep.equal({
      summary: 'Transferring to +14155550199.',
      ends: true,
    });
    expect(checked).to.deep.equal(['+19002345678', '+14155550111', '+14155550199']);
    expect(stops.map((s) => s.transferTo)).to.deep.equal(['+14155550111', '+14155550199']);
  });

  it("hands a conversation over with the model's reason, trimmed, or a default one", () => {
    const reasons: string[] = [];
    const tools = channelTools('conversation', { requestHandoff: (reason) => void reasons.push(reason), callback });
    expect(
      (applyTool(tools, { id: 't1', name: 'handoff_to_person', arguments: '{"reason":" angry "}' }) as ToolEffect).ends,
    ).to.equal(true);
    void applyTool(tools, { id: 't2', name: 'handoff_to_person', arguments: '{}' });
    expect(reasons).to.deep.equal(['angry', 'The assistant asked for a person.']);
    expect(
      (applyTool(tools, { id: 't3', name: 'handoff_to_person', arguments: '{"reason":3}' }) as ToolEffect).ends,
    ).to.equal(false);
  });

  it("fills a campaign call's form: good values kept, a bad value answered as an error", () => {
    const form = attendingForm();
    const tools = channelTools('campaign_call', { ...callTarget([]), form });
    expect(
      (applyTool(tools, { id: 't1', name: 'fill_form', arguments: '{"fields":{"attending":"y"}}' }) as ToolEffect)
        .summary,
    ).to.match(/^Error: nothing saved\. "attending" must be true or false/);
    expect(
      (applyTool(tools, { id: 't2', name: 'fill_form', arguments: '{"fields":{"attending":true}}' }) as ToolEffect)
        .summary,
    ).to.equal('Saved attending. The form is complete.');
    expect(form.values).to.deep.equal({ attending: true });
  });
});

describe('custom tools: naming the bad place of a JSON Schema (src/services/tools.ts)', () => {
  const schema = {
    type: 'object',
    properties: { 'a/b': { type: 'string' }, list: { type: 'array', items: [{ type: 'x' }] }, requried: {} },
    anyOf: [{ required: ['a'] }, { required: [7] }],
  };

  it('turns a JSON Pointer into the API param: dots for keys, [n] for array items, ~1 and ~0 decoded', () => {
    expect(jsonPointerParam(schema, '')).to.equal('parameters');
    expect(jsonPointerParam(schema, '/properties/a~1b/type')).to.equal('parameters.properties.a/b.type');
    expect(jsonPointerParam(schema, '/anyOf/1/required/0')).to.equal('parameters.anyOf[1].required[0]');
    expect(jsonPointerParam(schema, '/properties/list/items/0/type')).to.equal(
      'parameters.properties.list.items[0].type',
    );
    // A key made of digits in an object is a key, not an index.
    expect(jsonPointerParam({ properties: { '0': {} } }, '/properties/0')).to.equal('parameters.properties.0');
    expect(jsonPointerParam({}, '/x~0y', 'body')).to.equal('body.x~y');
  });

  it('finds where a keyword is used as one, not as a property name', () => {
    expect(keywordPointer(schema, 'requried')).to.equal(null); // a property's name under `properties`
    expect(keywordPointer({ ...schema, items: { requried: ['a'] } }, 'requried')).to.equal('/items/requried');
    expect(keywordPointer({ $defs: { minLenght: { minLenght: 1 } } }, 'minLenght')).to.equal(
      '/$defs/minLenght/minLenght',
    );
    expect(keywordPointer({ a: { $ref: '#/x' }, b: { $ref: '#/y' } }, '$ref', '#/y')).to.equal('/b/$ref');
  });

  it('answers the first meta-schema error, an unknown keyword, a dangling $ref, a non-object schema as a param', () => {
    const param = (value: Record<string, unknown>) => {
      try {
        checkToolParameters(value);
        return null;
      } catch (err) {
        return (err as { param?: string }).param;
      }
    };
    expect(param({ type: 'object', properties: { date: { type: 'strin' } } })).to.equal(
      'parameters.properties.date.type',
    );
    expect(param({ type: 'object', properties: { a: { type: 'string', requried: true } } })).to.equal(
      'parameters.properties.a.requried',
    );
    expect(param({ type: 'object', properties: { a: { $ref: '#/$defs/nope' } } })).to.equal(
      'parameters.properties.a.$ref',
    );
    expect(param({ type: 'array' })).to.equal('parameters.type');
    expect(param({ type: 'object', properties: { p: { type: 'string', pattern: '(' } } })).to.equal(
      'parameters.properties.p.pattern',
    );
    expect(param({ type: 'object', properties: { d: { type: 'string', format: 'date-time' } } })).to.equal(null);
    expect(
      param({
        $schema: 'http://json-schema.org/draft-07/schema#',
        type: 'object',
        definitions: { d: { type: 'string' } },
        properties: { a: { $ref: '#/definitions/d' } },
      }),
    ).to.equal(null);
    // The same `$id` twice is not "already exists": nothing is cached between checks.
    expect(param({ $id: 'https://example.com/s', type: 'object' })).to.equal(null);
    expect(param({ $id: 'https://example.com/s', type: 'object' })).to.equal(null);
  });
});

describe("custom tools: an MCP server's input schemas (src/services/tools.ts foreignSchemaProblem)", () => {
  it('takes a valid object schema, with keywords of its own', () => {
    expect(
      foreignSchemaProblem({
        type: 'object',
        properties: { order_id: { type: 'string', 'x-ui-widget': 'text' } },
        required: ['order_id'],
      }),
    ).to.equal(null);
    expect(foreignSchemaProblem({ $schema: 'http://json-schema.org/draft-07/schema#', type: 'object' })).to.equal(null);
  });

  it('refuses what the model’s provider would refuse: a bad type, a non-object schema, a huge one, an unknown dialect', () => {
    expect(foreignSchemaProblem({ type: 'object', properties: { a: { type: 'strnig' } } })).to.match(
      /^its input schema is invalid \(\/properties\/a\/type /,
    );
    expect(foreignSchemaProblem({ type: 'array' })).to.equal('its input schema is not an object schema');
    const huge = { type: 'object', description: 'x'.repeat(40_000) };
    expect(foreignSchemaProblem(huge)).to.match(/over 32768 characters/);
    expect(foreignSchemaProblem({ $schema: 'https://example.com/my-dialect', type: 'object' })).to.match(
      /unknown \$schema dialect/,
    );
  });
});
