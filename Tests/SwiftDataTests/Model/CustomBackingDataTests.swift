import Foundation
import SwiftData
import Testing

/// Backing data of another kind than SwiftData's: values in a dictionary by key path.
final class DictionaryBackingData<Model: PersistentModel>: BackingData {
    var values: [AnyKeyPath: Any] = [:]
    var persistentModelID: PersistentIdentifier?
    var metadata: Any { "dictionary" }

    init(for modelType: Model.Type) {}

    func getValue<Value>(forKey key: KeyPath<Model, Value>) -> Value where Value: Decodable {
        values[key] as! Value
    }

    func getValue<Value>(forKey key: KeyPath<Model, Value>) -> Value where Value: PersistentModel {
        values[key] as! Value
    }

    func getValue<Value>(forKey key: KeyPath<Model, Value?>) -> Value? where Value: PersistentModel {
        values[key] as? Value
    }

    func getValue<Value, OtherModel>(forKey key: KeyPath<Model, Value>) -> Value
    where Value: RelationshipCollection, OtherModel == Value.PersistentElement {
        values[key] as! Value
    }

    func getTransformableValue<Value>(forKey key: KeyPath<Model, Value>) -> Value { values[key] as! Value }

    func setTransformableValue<Value>(forKey key: KeyPath<Model, Value>, to newValue: Value) {
        values[key] = newValue
    }

    func setValue<Value>(forKey key: KeyPath<Model, Value>, to newValue: Value) where Value: Encodable {
        values[key] = newValue
    }

    func setValue<Value>(forKey key: KeyPath<Model, Value>, to newValue: Value) where Value: PersistentModel {
        values[key] = newValue
    }

    func setValue<Value>(forKey key: KeyPath<Model, Value?>, to newValue: Value?) where Value: PersistentModel {
        values[key] = newValue
    }

    func setValue<Value, OtherModel>(forKey key: KeyPath<Model, Value>, to newValue: Value)
    where Value: RelationshipCollection, OtherModel == Value.PersistentElement {
        values[key] = newValue
    }
}

/// `@Model`'s accessors pass each property's slot to SwiftData's backing data; backing data of another kind is
/// used through `getValue(forKey:)` and `setValue(forKey:to:)` as before.
@Suite struct CustomBackingDataTests {
    @Test func accessorsReadAndWriteThroughBackingDataOfAnotherKind() {
        let pet = Pet(name: "Rex")
        let custom = DictionaryBackingData<Pet>(for: Pet.self)
        custom.values[\Pet.name] = "Kept elsewhere"
        pet.persistentBackingData = custom
        #expect(pet.name == "Kept elsewhere")
        pet.name = "Changed"
        #expect(custom.values[\Pet.name] as? String == "Changed")
        #expect(observesChange({ _ = pet.name }) { pet.name = "Observed" })
    }

    /// `init(backingData:)` keeps the backing data it is given, of any kind, in place of the one the model's
    /// initial value made.
    @Test func initializingWithBackingDataKeepsIt() {
        let custom = DictionaryBackingData<Pet>(for: Pet.self)
        custom.values[\Pet.name] = "Given"
        let pet = Pet(backingData: custom)
        #expect(pet.persistentBackingData as? DictionaryBackingData<Pet> === custom)
        #expect(pet.name == "Given")
        pet.name = "Changed"
        #expect(custom.values[\Pet.name] as? String == "Changed")
    }
}
