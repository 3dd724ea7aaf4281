// "Send to many", step 2: what each column of the list holds (mapping.ts), the options every row
// shares (e-mail on or off, signing order), and "Check the rows". A role without an e-mail column,
// a target taken twice or a metadata column without a key holds the check back, said in words.
import { fill, type Texts, useTexts } from '../texts.ts'
import type { Template } from '../types.ts'
import type { CsvTable } from './csv.ts'
import {
  type ColumnChoice,
  type Mapping,
  type MappingProblems,
  METADATA,
  mappingReady,
  type Target,
  targetsOf,
} from './mapping.ts'

export interface SendOptions {
  sendEmail: boolean
  order: 'preserved' | 'random'
}

function targetLabel(target: Target, t: Texts): string {
  switch (target.kind) {
    case 'email':
      return fill(t.bulk_target_email, { role: target.role! })
    case 'name':
      return fill(t.bulk_target_name, { role: target.role! })
    case 'field':
      return fill(t.bulk_target_field, { field: target.field!, role: target.role! })
    case 'external_id':
      return t.bulk_target_external_id
    case 'metadata':
      return t.bulk_target_metadata
  }
}

function ColumnSelect(props: {
  id: string
  label: string
  choice: ColumnChoice
  targets: Target[]
  onChoice: (choice: ColumnChoice) => void
}) {
  const { t } = useTexts()
  const group = (kinds: Target['kind'][], label: string) => (
    <optgroup label={label}>
      {props.targets
        .filter((target) => kinds.includes(target.kind))
        .map((target) => (
          <option key={target.value} value={target.value}>
            {targetLabel(target, t)}
          </option>
        ))}
    </optgroup>
  )
  return (
    <select
      id={props.id}
      aria-label={props.label}
      value={props.choice.target}
      onChange={(e) => props.onChoice({ ...props.choice, target: e.currentTarget.value })}
    >
      <option value="">{t.bulk_ignore}</option>
      {group(['email', 'name'], t.bulk_group_signers)}
      {props.targets.some((target) => target.kind === 'field') ? group(['field'], t.bulk_group_fields) : null}
      {group(['external_id', 'metadata'], t.bulk_group_other)}
    </select>
  )
}

function Problems({ problems }: { problems: MappingProblems }) {
  const { t } = useTexts()
  const lines = [
    ...problems.missingRoles.map((role) => fill(t.bulk_missing_role, { role })),
    ...problems.twice.map((name) => fill(t.bulk_twice, { name })),
    ...(problems.metadataWithoutKey ? [t.bulk_metadata_without_key] : []),
  ]
  if (lines.length === 0) return null
  return (
    <ul class="bulk-problems" id="bulk-mapping-problems">
      {lines.map((line) => (
        <li key={line}>{line}</li>
      ))}
    </ul>
  )
}

export function MappingStep(props: {
  template: Template
  table: CsvTable
  mapping: Mapping
  problems: MappingProblems
  onChoice: (column: number, choice: ColumnChoice) => void
  options: SendOptions
  onOptions: (options: SendOptions) => void
  checking: boolean
  onCheck: () => void
}) {
  const { t } = useTexts()
  const targets = targetsOf(props.template)
  const first = props.table.rows[0] ?? []
  const ready = mappingReady(props.problems)
  return (
    <section class="panel bulk-mapping" aria-labelledby="bulk-columns-title">
      <h2 id="bulk-columns-title">{t.bulk_columns_title}</h2>
      <p class="muted">{t.bulk_columns_intro}</p>
      <div class="table-wrap">
        <table>
          <caption class="visually-hidden">{t.bulk_columns_title}</caption>
          <thead>
            <tr>
              <th scope="col">{t.bulk_column}</th>
              <th scope="col">{t.bulk_example}</th>
              <th scope="col">{t.bulk_maps_to}</th>
            </tr>
          </thead>
          <tbody>
            {props.table.header.map((name, i) => {
              const choice = props.mapping[i]!
              const label = fill(t.bulk_map_label, { name })
              return (
                <tr key={i}>
                  <td data-label={t.bulk_column} class="bulk-header-name">
                    {name || '—'}
                  </td>
                  <td data-label={t.bulk_example} class="bulk-sample">
                    {first[i] || <span class="muted">—</span>}
                  </td>
                  {/* No label of its own in a phone's card: the select takes the card's width (it has its own). */}
                  <td class="bulk-target">
                    <ColumnSelect
                      id={`bulk-map-${i}`}
                      label={label}
                      choice={choice}
                      targets={targets}
                      onChoice={(next) => props.onChoice(i, next)}
                    />
                    {choice.target === METADATA ? (
                      <input
                        class="bulk-metadata-key"
                        aria-label={fill(t.bulk_metadata_key, { name })}
                        value={choice.key}
                        onInput={(e) => props.onChoice(i, { ...choice, key: e.currentTarget.value })}
                      />
                    ) : null}
                  </td>
                </tr>
              )
            })}
          </tbody>
        </table>
      </div>
      <Problems problems={props.problems} />
      <OptionsFields
        options={props.options}
        onOptions={props.onOptions}
        roles={props.template.roles.length}
      />
      <div class="send-actions">
        <button
          type="button"
          class="button primary"
          disabled={!ready || props.checking}
          aria-describedby={ready ? undefined : 'bulk-mapping-problems'}
          onClick={props.onCheck}
        >
          {props.checking ? t.bulk_checking : t.bulk_check}
        </button>
      </div>
    </section>
  )
}

function OptionsFields(props: { options: SendOptions; onOptions: (o: SendOptions) => void; roles: number }) {
  const { t } = useTexts()
  const { options } = props
  return (
    <div class="bulk-options">
      <label class="checkbox">
        <input
          type="checkbox"
          checked={options.sendEmail}
          onChange={(e) => props.onOptions({ ...options, sendEmail: e.currentTarget.checked })}
        />
        {t.send_email_on}
      </label>
      {props.roles > 1 ? (
        <fieldset class="send-choice">
          <legend>{t.send_order}</legend>
          {(['preserved', 'random'] as const).map((order) => (
            <label key={order} class="checkbox">
              <input
                type="radio"
                name="bulk-order"
                checked={options.order === order}
                onChange={() => props.onOptions({ ...options, order })}
              />
              {order === 'preserved' ? t.send_order_preserved : t.send_order_random}
            </label>
          ))}
        </fieldset>
      ) : null}
    </div>
  )
}
