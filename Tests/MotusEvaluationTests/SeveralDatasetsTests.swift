import Testing
import MotusCore
import MotusIO
import MotusClassifier
import MotusEvaluation

/// Windows from several data sets at once: each window knows its data set and group, and
/// subjects carry their data set's name so that two data sets' "1" are two people.
@Suite struct SeveralDatasetsTests {
    @Test(.enabled(if: TestData.datasets != nil, "../shared/datasets not found (or MOTUS_DATASETS absent): skipped"))
    func windowsCarryTheirDataSetGroupAndPrefixedSubject() throws {
        let root = TestData.datasets!
        let datasets = try [root + "/ipol/voisard2023_ipol497", root + "/sp-sw-har"].map { try EvaluationDataset.open($0) }
        let labels = try LabelMap(parsing: ["moving=walk,WALKING,TURNING", "still=still,SEATED"])
        let (data, _) = try LabelledWindows.collect(datasets, pipeline: MotionModel.shipped.pipeline, labels: labels)
        #expect(Set(data.datasets) == ["ipol", "sp-sw-har"])
        for r in 0..<data.count {
            #expect(data.subjects[r].hasPrefix(data.datasets[r] + "/"), "\(data.subjects[r]) of \(data.datasets[r])")
        }
        // sp-sw-har's recordings are grouped by device (phone, watch).
        #expect(Set(zip(data.datasets, data.groups).filter { $0.0 == "sp-sw-har" }.map(\.1)) == ["sp", "sw"])
        // Both data sets number their subjects; none is shared after the prefix.
        let ipol = Set(zip(data.datasets, data.subjects).filter { $0.0 == "ipol" }.map(\.1))
        let har = Set(zip(data.datasets, data.subjects).filter { $0.0 == "sp-sw-har" }.map(\.1))
        #expect(ipol.count == 19 && har.count == 8 && ipol.isDisjoint(with: har))
        let report = try MotionModel.shipped.evaluate(data, scheme: "t")
        #expect(report.groups?.map(\.name) == ["ipol", "sp-sw-har", "sp-sw-har/sp", "sp-sw-har/sw"])
        #expect(report.groups?.first?.windows == data.datasets.filter { $0 == "ipol" }.count)
    }
}
