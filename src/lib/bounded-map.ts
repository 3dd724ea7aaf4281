// A Map that forgets its oldest entry once it holds `max`: for caches of things that never change
// once made (compiled statements, a template's field report), where a miss only costs a rebuild.

export class BoundedMap<K, V> extends Map<K, V> {
  readonly #max: number
  constructor(max = 1000) {
    super()
    this.#max = max
  }
  override set(key: K, value: V): this {
    if (this.size >= this.#max && !this.has(key)) this.delete(this.keys().next().value as K)
    return super.set(key, value)
  }
}
