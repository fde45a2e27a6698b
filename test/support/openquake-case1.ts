// OpenQuake's scenario-risk QA test case_1 (gem/oq-engine, openquake/qa_tests_data/scenario_risk/
// case_1), its input files as the engine's repository publishes them, for the tests that check the
// lane against the case's expected outputs.

// exposure_model.xml of case_1 (NRML 0.4), asset a2 only: job_risk.ini's region
// (15.48 38.30, 15.63 38.30, 15.63 38.01, 15.48 38.01) has a1 and a3 (lon 15.48) on its western
// edge, and OpenQuake keeps only the assets strictly within it; the expected aggrisk's loss_ratio
// (412.367 / 2000 = 0.206184) confirms a2's 2000 is the whole exposed value.
export const CASE1_EXPOSURE = `<?xml version='1.0' encoding='UTF-8'?>
<nrml xmlns="http://openquake.org/xmlns/nrml/0.4">
  <exposureModel id="ep" category="buildings" taxonomySource="Messina taxonomy">
    <description>Collection of existing building in the region of Messina, Italy</description>
    <conversions>
      <costTypes>
        <costType name="structural" unit="USD" type="aggregated"/>
      </costTypes>
    </conversions>
    <tagNames> OCC </tagNames>
    <assets>
      <asset id="a2" taxonomy="RC" number="2000">
        <location lon="15.56" lat="38.17"/>
        <costs>
          <cost type="structural" value="2000" deductible="350" insuranceLimit="800"/>
        </costs>
        <tags OCC="res" />
      </asset>
    </assets>
  </exposureModel>
</nrml>`;

// vulnerability.xml of case_1 (NRML 0.5, covLRs all 0: the mean case, deterministic).
export const CASE1_VULNERABILITY = `<?xml version="1.0" encoding="utf-8"?>
<nrml xmlns="http://openquake.org/xmlns/nrml/0.5" xmlns:gml="http://www.opengis.net/gml">
  <vulnerabilityModel assetCategory="buildings" id="Messina" lossCategory="economic_loss">
    <vulnerabilityFunction dist="LN" id="RC">
      <imls imt="PGA">1.0000E-01 2.0000E-01 3.0000E-01 5.0000E-01 7.0000E-01</imls>
      <meanLRs>3.5000E-03 7.0000E-02 1.4000E-01 2.8000E-01 5.6000E-01</meanLRs>
      <covLRs>0.0000E+00 0.0000E+00 0.0000E+00 0.0000E+00 0.0000E+00</covLRs>
    </vulnerabilityFunction>
    <vulnerabilityFunction dist="LN" id="RM">
      <imls imt="PGA">1.0000E-01 2.0000E-01 3.0000E-01 5.0000E-01 7.0000E-01</imls>
      <meanLRs>5.0000E-02 1.0000E-01 2.0000E-01 4.0000E-01 8.0000E-01</meanLRs>
      <covLRs>0.0000E+00 0.0000E+00 0.0000E+00 0.0000E+00 0.0000E+00</covLRs>
    </vulnerabilityFunction>
  </vulnerabilityModel>
</nrml>`;

// gmf_scenario.csv of case_1 in the engine's current layout (qa_tests_data/scenario_risk/case_01/
// case_1/gmf_scenario.csv), and its one site as expected/sites.csv exports it (15.56 38.17).
export const CASE1_GMFS = `sid,eid,gmv_PGA
0,0,0.60403156
0,1,0.33487797
0,2,0.39260185
0,3,0.36763483
0,4,0.34461257
0,5,0.28035745
0,6,0.4436092
0,7,0.24184512
0,8,0.50698245
0,9,0.45975763
`;
export const CASE1_SITES = 'site_id,lon,lat\n0,15.56,38.17\n';

