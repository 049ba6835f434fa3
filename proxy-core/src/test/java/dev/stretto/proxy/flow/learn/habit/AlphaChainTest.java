package dev.stretto.proxy.flow.learn.habit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The alpha chain on the reference's six shop sessions: the vectors of stretto-learn 3.4.3. */
class AlphaChainTest {

    private static PrequentialLikelihood likelihood;
    private static AlphaChain.Result result;

    @BeforeAll
    static void runTheChainOnce() {
        likelihood = new PrequentialLikelihood(ShopHabit.EPISODES, ShopHabit.VOCAB_SIZE);
        result = AlphaChain.run(likelihood);
    }

    @Test
    void thePrequentialLogLikelihoodAtAlphaOneIsTheReferences() {
        assertEquals(-21.888488575491014, likelihood.at(1.0));
    }

    @Test
    void thePrequentialLogLikelihoodAtTheFittedAlphaIsTheReferences() {
        assertEquals(-21.81759361669627, likelihood.at(0.6973960072663901));
    }

    @Test
    void theChainStartsFromTheZigguratDraw() {
        assertEquals(-2.0871532534599675, result.start());
    }

    @Test
    void theFirstThreeProposalsAreRejectedAcceptedRejected() {
        assertEquals(List.of(new AlphaChain.Move(-3.9906828710300255, false),
                        new AlphaChain.Move(-0.9227557359555363, true),
                        new AlphaChain.Move(-2.48169768742283, false)),
                result.moves().subList(0, 3));
    }

    @Test
    void theScaleAfterWarmUpIsTheReferences() {
        assertEquals(1.3200896967024471, result.scaleAfterWarmUp());
        assertEquals(136, result.warmUpAccepted()); // 0.45333... of 300
    }

    @Test
    void theMedianAndTheQuantilesAreTheReferencesToTheLastBit() {
        assertEquals(0.6973960072663901, result.median());
        assertEquals(0.2575471795642598, result.lo());
        assertEquals(1.6529872901618536, result.hi());
    }

    @Test
    void theMedianIsRecomputedTheSameOnEveryRun() {
        assertEquals(result, AlphaChain.run(likelihood));
    }
}
