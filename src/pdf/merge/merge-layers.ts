// Layers (optional content, ISO 32000-1 §8.11) of a document merged into another. Content marked
// for a layer the merged catalog does not list is drawn whatever the layer's state: a layer its
// author left hidden (a draft stamp, an alternative language) would appear in the signed final. So
// each later document's layers join the merged /OCProperties with their default states, and its
// layer panel order goes under a label bearing the document's name.
import type * as mupdf from 'mupdf'

export interface LayerPart {
  name: string
  /** The source document's /OCProperties (may be null), and the graft map of that document. */
  properties: mupdf.PDFObject
  map: mupdf.PDFGraftMap
}

export function mergeLayers(doc: mupdf.PDFDocument, part: LayerPart): void {
  const source = part.properties
  const layers = source.isDictionary() ? source.get('OCGs') : undefined
  if (!layers?.isArray() || layers.length === 0) return
  const config = source.get('D')
  const hidden = hiddenLayers(layers, config)
  const target = propertiesOf(doc)
  const targetConfig = target.get('D')
  const targetHidesByDefault = isName(targetConfig.get('BaseState'), 'OFF')
  for (let i = 0; i < layers.length; i++) {
    const layer = layers.get(i)
    if (!layer.isIndirect()) continue
    const grafted = part.map.graftObject(layer)
    target.get('OCGs').push(grafted)
    const isHidden = hidden.has(layer.asIndirect())
    // The merged default state must say what this document's default said, whatever its base state.
    if (isHidden && !targetHidesByDefault) arrayIn(targetConfig, 'OFF').push(grafted)
    if (!isHidden && targetHidesByDefault) arrayIn(targetConfig, 'ON').push(grafted)
  }
  const order = config.isDictionary() && config.get('Order').isArray() ? config.get('Order') : layers
  const group = doc.newArray()
  group.push(doc.newString(part.name))
  for (let i = 0; i < order.length; i++) group.push(part.map.graftObject(order.get(i)))
  arrayIn(targetConfig, 'Order').push(group)
  for (const key of ['RBGroups', 'Locked', 'AS']) {
    const entries = config.isDictionary() ? config.get(key) : undefined
    for (let i = 0; entries?.isArray() && i < entries.length; i++) {
      arrayIn(targetConfig, key).push(part.map.graftObject(entries.get(i)))
    }
  }
}

/** Object numbers of the layers hidden by default: /OFF, or all but /ON under /BaseState /OFF. */
function hiddenLayers(layers: mupdf.PDFObject, config: mupdf.PDFObject): Set<number> {
  const numbers = (list: mupdf.PDFObject | undefined) => {
    const found = new Set<number>()
    for (let i = 0; list?.isArray() && i < list.length; i++) {
      if (list.get(i).isIndirect()) found.add(list.get(i).asIndirect())
    }
    return found
  }
  if (!config.isDictionary()) return new Set()
  if (!isName(config.get('BaseState'), 'OFF')) return numbers(config.get('OFF'))
  const shown = numbers(config.get('ON'))
  return new Set([...numbers(layers)].filter((layer) => !shown.has(layer)))
}

/** The merged document's /OCProperties with /OCGs and /D, made when the first document had none. */
function propertiesOf(doc: mupdf.PDFDocument): mupdf.PDFObject {
  const catalog = doc.getTrailer().get('Root')
  let properties = catalog.get('OCProperties')
  if (!properties.isDictionary()) {
    properties = doc.addObject(doc.newDictionary())
    catalog.put('OCProperties', properties)
  }
  arrayIn(properties, 'OCGs')
  if (!properties.get('D').isDictionary()) properties.put('D', doc.newDictionary())
  return properties
}

function arrayIn(dict: mupdf.PDFObject, key: string): mupdf.PDFObject {
  const found = dict.get(key)
  return found.isArray() ? found : dict.put(key, [])
}

function isName(object: mupdf.PDFObject, name: string): boolean {
  return object.isName() && object.asName() === name
}
